/**
 * An installed app keeps reading the answers of a newer server (docs/decisions/094): added fields
 * are dropped, not refused, and the door's two answers (a verdict, an upload's results) survive a
 * reason the app does not know yet.
 */
import { expect, test } from 'vitest';
import type { z } from 'zod';
import * as contract from './index.ts';
import { apiCompatibility, OfflineScanBatchResponse, VerifyTicketResponse } from './index.ts';

type AnySchema = z.core.$ZodType;

function isSchema(value: unknown): value is AnySchema {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** Every object schema inside `schema` that refuses unknown keys (`.strict()`, `z.strictObject`), by path. */
function strictObjectsIn(schema: AnySchema, path: string, seen = new Set<AnySchema>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const found: string[] = [];
  const visit = (child: unknown, childPath: string) => {
    if (isSchema(child)) found.push(...strictObjectsIn(child, childPath, seen));
  };
  if (def.type === 'object') {
    const catchall = def.catchall;
    if (isSchema(catchall) && catchall._zod.def.type === 'never') found.push(path);
    for (const [key, child] of Object.entries(def.shape as Record<string, unknown>)) visit(child, `${path}.${key}`);
  }
  for (const key of ['innerType', 'element', 'in', 'out', 'left', 'right', 'valueType', 'keyType']) visit(def[key], path);
  for (const key of ['options', 'items']) if (Array.isArray(def[key])) (def[key] as unknown[]).forEach((child, index) => visit(child, `${path}[${index}]`));
  return found;
}

test('no answer of the API refuses a field added by a newer server (only requests may be strict)', () => {
  const answers = Object.entries(contract).filter(([name, value]) => isSchema(value) && !name.endsWith('Request'));
  // The walk reaches the schemas the door depends on: a broken walk would pass by finding nothing.
  expect(answers.map(([name]) => name)).toEqual(expect.arrayContaining(['VerifyTicketResponse', 'OfflineScanBatchResponse', 'DoorList']));
  const strict = answers.flatMap(([name, schema]) => strictObjectsIn(schema as AnySchema, name));
  expect(strict).toEqual([]);
});

test('the strictness walk finds a strict object where there is one (the test can fail)', () => {
  expect(strictObjectsIn(contract.LogoutRequest as AnySchema, 'LogoutRequest')).toEqual(['LogoutRequest']);
});

test('a verdict from a newer server, with a field and a denial reason this app does not know, is still read as DENIED', () => {
  const approved = VerifyTicketResponse.parse({ isValid: true, holderName: 'Ada', entryGate: 'North 2' });
  expect(approved).toEqual({ isValid: true, holderName: 'Ada' });
  const denied = VerifyTicketResponse.parse({ isValid: false, reason: 'capacity_reached', message: 'The venue is full.', insideNow: 1200 });
  expect(denied.isValid).toBe(false);
  expect(denied).toMatchObject({ isValid: false, message: 'The venue is full.' });
  expect(denied.isValid === false && denied.reason).toBeFalsy();
  // A known reason is kept.
  expect(VerifyTicketResponse.parse({ isValid: false, reason: 'already_checked_in' })).toMatchObject({ reason: 'already_checked_in' });
});

test("an upload's results from a newer server keep each scan's status when its reason is new", () => {
  const answer = OfflineScanBatchResponse.parse({
    receivedAt: '2026-11-27T12:00:00.000Z',
    results: [{ index: 0, scanId: 's1', status: 'rejected', reason: 'wrong_check_in_list', message: 'Not on this list.', listName: 'VIP' }],
  });
  expect(answer.results[0]).toMatchObject({ index: 0, scanId: 's1', status: 'rejected', message: 'Not on this list.' });
  expect(answer.results[0]?.reason).toBeUndefined();
});

test.each([
  { server: { apiVersion: 1, oldestAppApiVersion: 1 }, app: 1, expected: 'ok' },
  { server: { apiVersion: 3, oldestAppApiVersion: 1 }, app: 2, expected: 'ok' },
  { server: { apiVersion: 1, oldestAppApiVersion: 1 }, app: 2, expected: 'server_too_old' },
  { server: { apiVersion: 3, oldestAppApiVersion: 2 }, app: 1, expected: 'app_too_old' },
] as const)('an app of API $app with a server of $server.apiVersion (oldest app $server.oldestAppApiVersion): $expected', ({ server, app, expected }) => {
  expect(apiCompatibility(server, app)).toBe(expected);
});
