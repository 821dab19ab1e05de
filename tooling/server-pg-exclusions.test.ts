/**
 * The server files left out of the 'server-pg' project (vitest.config.ts) must really be independent
 * of the project's database: a file on that list that uses the test database helper or reads
 * DATABASE_URL would silently lose its PostgreSQL run. Each listed file must also exist, so a
 * renamed file does not leave a stale entry behind.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { DATABASE_INDEPENDENT_SERVER_FILES } from '../vitest.config.ts';

const serverRoot = path.join(import.meta.dirname, '..', 'apps', 'server');

/** What marks a file as using the project's database: its helper, its kind, or the variable itself (other than emptying it for a child). */
const DATABASE_USE = /test-app|TEST_DATABASE_KIND|createPostgresTestDatabase|process\.env\.DATABASE_URL(?!\s*[:=]\s*'')/;

test.each(DATABASE_INDEPENDENT_SERVER_FILES)('%s never reaches the project database', (file) => {
  const source = readFileSync(path.join(serverRoot, file), 'utf8');
  expect(source).not.toMatch(DATABASE_USE);
});

test('the check recognises a file that does use the project database', () => {
  expect("import { createTestApp } from './helpers/test-app.ts';").toMatch(DATABASE_USE);
  expect('const url = process.env.DATABASE_URL;').toMatch(DATABASE_USE);
  expect("env: { ...process.env, DATABASE_URL: '' }").not.toMatch(DATABASE_USE);
});
