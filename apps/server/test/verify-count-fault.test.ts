/**
 * A re-entry list's approval says how many guests are inside, counted after the check-in has
 * committed. When that count fails (here a real fault of the database session: the check-in's own
 * trigger leaves the session unable to find `check_ins` again), the check-in stands: verify still
 * answers the approval, without the count, records the check-in once and logs the cause once at
 * warn. PGlite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { apiPaths, CheckInList, checkInListsPath, VerifyTicketResponse } from '@gatecheck/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../src/db/rows.ts';
import { DEMO_COLLEAGUE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
/** The app's log lines at warn and above. */
const logLines: string[] = [];

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== '')));
  t = await createTestApp({ env: { LOG_LEVEL: 'warn' }, logStream });
});
afterAll(async () => {
  await t.close();
});

test('the count after a committed re-entry check-in fails: APPROVED without insideNow, one check-in, one scan-log row', async () => {
  const ids = await demoIds(t.database.db);
  const adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  const staffToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
  const created = await t.app.inject({ method: 'POST', url: api(checkInListsPath(ids.liveEventId)), headers: bearer(adminToken), payload: { name: `Hall ${randomUUID().slice(0, 8)}`, allowsReentry: true } });
  expect(created.statusCode, created.body).toBe(201);
  const hall = CheckInList.parse(created.json());
  const code = `COUNT-FAULT-${randomUUID().slice(0, 18)}`;
  const [ticket] = await insertTickets(t.database.db, [{ code, eventId: ids.liveEventId, holderName: 'Holder', ticketType: 'General Admission' }]);
  if (!ticket) throw new Error('no ticket');
  // This ticket's check-in, as it commits, points its session's search_path at a schema that does
  // not exist: the check-in commits, and the next statement naming check_ins (the count) fails. A
  // deferred constraint trigger, so that it runs at the commit, after the statement's own triggers
  // (the live door's counters, decision 132), which must still find their tables.
  await t.database.db.execute(sql.raw(`
    create function public.lose_search_path() returns trigger language plpgsql as $$
    begin perform set_config('search_path', 'no_such_schema', false); return null; end $$`));
  await t.database.db.execute(sql.raw(`
    create constraint trigger lose_search_path after insert on public.check_ins
      deferrable initially deferred for each row
      when (new.ticket_id = '${ticket.id}') execute function public.lose_search_path();`));

  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(staffToken),
    payload: { eventId: ids.liveEventId, qrCode: code, day: DEMO_TODAY_DAY_NUMBER, checkInListId: hall.id, scanId: randomUUID() },
  });

  // On PGlite the app's one session is this one; on PostgreSQL every statement below names its schema.
  await t.database.db.execute(sql`set search_path to default`);
  expect(response.statusCode, response.body).toBe(200);
  const verdict = VerifyTicketResponse.parse(response.json());
  expect(verdict).toMatchObject({ isValid: true, holderName: 'Holder' });
  expect(verdict).not.toHaveProperty('insideNow');
  expect(verdict).not.toHaveProperty('capacity');
  const checkIns = rowsOf(await t.database.db.execute(sql.raw(`select count(*)::int as n from public.check_ins where ticket_id = '${ticket.id}'`)));
  expect(checkIns).toEqual([{ n: 1 }]);
  const logged = rowsOf(await t.database.db.execute(sql.raw(`select verdict from public.scan_log where code = '${code}'`)));
  expect(logged).toEqual([{ verdict: 'approved' }]);
  const warnings = logLines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } }).filter((entry) => entry.msg.includes('counting the guests inside'));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatchObject({ level: 40, err: { message: expect.stringContaining('check_ins') } });
});
