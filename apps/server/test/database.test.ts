import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { users } from '../src/db/schema.ts';
import { createUser } from '../src/services/users.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-db-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

test('the embedded database keeps its data across restarts and can be opened by one process at a time', async () => {
  const pgliteDir = path.join(dataDir, 'pgdata');
  const first = await openDatabase({ pgliteDir });
  await createUser(first.db, { displayName: 'Kept', username: 'kept', email: 'kept@example.com', password: 'kept-password' });
  await expect(openDatabase({ pgliteDir })).rejects.toThrow(/in use by process \d+/);
  await first.close();

  const second = await openDatabase({ pgliteDir });
  const rows = await second.db.select({ username: users.username }).from(users);
  await second.close();
  expect(rows).toEqual([{ username: 'kept' }]);
});

test('a lock left by a process that is gone is taken over', async () => {
  const pgliteDir = path.join(dataDir, 'stale');
  // A pid far above any real one (Linux pid_max is at most 4194304).
  await writeFile(`${pgliteDir}.lock`, '99999999');
  const handle = await openDatabase({ pgliteDir });
  await handle.close();
});

test("a lock holding this process's own pid, left by an earlier run (a restarted container), is taken over", async () => {
  const pgliteDir = path.join(dataDir, 'restarted');
  await writeFile(`${pgliteDir}.lock`, String(process.pid));
  const handle = await openDatabase({ pgliteDir });
  await handle.close();
});
