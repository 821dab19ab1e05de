/**
 * docs/decisions/README.md lists every decision record exactly once, and every record it links exists
 * (SEAMS §7: an index next to the records, supersede instead of rewriting).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const DECISIONS = fileURLToPath(new URL('../docs/decisions/', import.meta.url));

test('the decisions index links every record once and nothing else', () => {
  const records = readdirSync(DECISIONS).filter((name) => /^\d{3}-.+\.md$/.test(name)).sort();
  const index = readFileSync(`${DECISIONS}README.md`, 'utf8');
  const linked = [...index.matchAll(/\]\((\d{3}-[^)#]+\.md)\)/g)].map((match) => match[1]);
  const rows = index.split('\n').filter((line) => /^\| \[\d{3}\]/.test(line));
  expect(rows.length).toBe(records.length);
  expect([...new Set(rows.map((row) => /\]\(([^)]+)\)/.exec(row)?.[1]))].sort()).toEqual(records);
  for (const target of linked) expect(records).toContain(target);
});

test('every record has the four sections and a superseded record names its successor', () => {
  for (const name of readdirSync(DECISIONS).filter((file) => /^\d{3}-.+\.md$/.test(file))) {
    const text = readFileSync(`${DECISIONS}${name}`, 'utf8');
    for (const section of ['## Context', '## Decision', '## Consequences', '## Status']) {
      expect(text, `${name} lacks ${section}`).toContain(section);
    }
    const status = text.slice(text.indexOf('## Status'));
    if (/superseded/i.test(status)) expect(status, `${name}: superseded by which record?`).toMatch(/\d{3}/);
  }
});
