/**
 * A PostgreSQL restart (or an administrator) ending the app's idle connections must not crash the
 * process, and the next request must get a fresh connection. PGlite runs in-process with a single
 * connection: there the same query must find nothing to end and the app goes on answering.
 */
import { apiPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_LIVE_EVENT_TITLE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { demoIds, ticketPicker } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, withAdminClient, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let token: string;
let liveEventId: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  liveEventId = (await demoIds(t.database.db)).liveEventId;
});
afterAll(async () => {
  await t.close();
});

const TERMINATE_OTHERS = sql`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;

/** The rows of a raw `execute()` result (both drivers answer `{ rows }`; the shared type does not say so). */
function rowsOf(result: unknown): object[] {
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows)) throw new Error('execute() gave no rows');
  return result.rows.filter((row): row is object => typeof row === 'object' && row !== null);
}

/** The name of the app's database, asked through the app's own pool. */
async function appDatabaseName(): Promise<string> {
  const [row] = rowsOf(await t.database.db.execute(sql`SELECT current_database() AS name`));
  const name = row && 'name' in row ? row.name : undefined;
  if (typeof name !== 'string') throw new Error('current_database() gave no name');
  return name;
}

/**
 * Ends every connection to the app's database from a connection of our own (as a restart would),
 * and waits until PostgreSQL has let them go.
 * @returns how many were ended.
 */
async function endAppConnectionsFromOutside(serverUrl: string): Promise<number> {
  const name = await appDatabaseName();
  let ended = 0;
  await withAdminClient(serverUrl, async (client) => {
    const result = await client.query<{ ended: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    ended = result.rows.filter((row) => row.ended).length;
    for (let attempt = 0; attempt < 200; attempt++) {
      const left = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (left.rows[0]?.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`connections to ${name} did not end`);
  });
  // The backends are gone; give this process's event loop a moment to read their goodbyes.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return ended;
}

test(`idle database connections ended by the database server do not crash the app, and the next requests work (${TEST_DATABASE_KIND})`, async () => {
  // Several concurrent requests leave several idle connections in the pool.
  const warmUp = await Promise.all(
    Array.from({ length: 8 }, () => t.app.inject({ method: 'GET', url: api(apiPaths.organizations), headers: bearer(token) })),
  );
  expect(warmUp.map((response) => response.statusCode)).toEqual(Array.from({ length: 8 }, () => 200));

  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    expect(await endAppConnectionsFromOutside(serverUrl)).toBeGreaterThanOrEqual(2);
  } else {
    // Embedded: one in-process connection, nothing else to end.
    expect(rowsOf(await t.database.db.execute(TERMINATE_OTHERS))).toEqual([]);
  }

  const pick = ticketPicker(t.demo?.tickets ?? []);
  for (let round = 0; round < 3; round++) {
    const ticket = pick((candidate) => candidate.eventTitle === DEMO_LIVE_EVENT_TITLE && candidate.days === null && !candidate.isRevoked);
    const verify = await t.app.inject({
      method: 'POST',
      url: api(apiPaths.verifyTicket),
      headers: bearer(token),
      payload: { eventId: liveEventId, qrCode: ticket.code, day: DEMO_TODAY_DAY_NUMBER },
    });
    expect(verify.statusCode, verify.body).toBe(200);
    expect(VerifyTicketResponse.parse(verify.json()).isValid).toBe(true);
  }
  const organizations = await Promise.all(
    Array.from({ length: 8 }, () => t.app.inject({ method: 'GET', url: api(apiPaths.organizations), headers: bearer(token) })),
  );
  expect(organizations.map((response) => response.statusCode)).toEqual(Array.from({ length: 8 }, () => 200));
});
