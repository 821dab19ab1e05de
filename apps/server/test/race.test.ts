import { apiPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkIns, scanLog, tickets } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_LIVE_EVENT_TITLE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const CONCURRENT_SCANS = 50;
const ROUNDS = 8;

let t: TestApp;
let tokens: string[];
let liveEventId: string;
beforeAll(async () => {
  t = await createTestApp();
  tokens = [await login(t.app, DEMO_USER.username, DEMO_USER.password), await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password)];
  liveEventId = (await demoIds(t.database.db)).liveEventId;
});
afterAll(async () => {
  await t.close();
});

test(`${CONCURRENT_SCANS} concurrent scans of one ticket for one day approve exactly once, round after round (${TEST_DATABASE_KIND})`, async () => {
  const candidates = (t.demo?.tickets ?? []).filter((ticket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE && ticket.days === null && !ticket.isRevoked);
  expect(candidates.length).toBeGreaterThanOrEqual(ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    const code = candidates[round]?.code ?? '';
    // The demo's day that is today: the other days do not admit now (issue 15).
    const day = DEMO_TODAY_DAY_NUMBER;
    const responses = await Promise.all(
      Array.from({ length: CONCURRENT_SCANS }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: api(apiPaths.verifyTicket),
          headers: bearer(tokens[i % tokens.length] ?? ''),
          payload: { eventId: liveEventId, qrCode: code, day },
        }),
      ),
    );
    const verdicts = responses.map((response) => {
      expect(response.statusCode).toBe(200);
      return VerifyTicketResponse.parse(response.json());
    });
    const approvals = verdicts.filter((verdict) => verdict.isValid);
    const denials = verdicts.filter((verdict) => !verdict.isValid);
    expect(approvals).toHaveLength(1);
    expect(denials.every((verdict) => verdict.isValid === false && verdict.reason === 'already_checked_in')).toBe(true);
    expect(new Set(denials.map((verdict) => verdict.checkedInAt))).toEqual(new Set([approvals[0]?.checkedInAt]));

    const [ticket] = await t.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.code, code));
    const [rows] = await t.database.db
      .select({ value: count() })
      .from(checkIns)
      .where(and(eq(checkIns.ticketId, ticket?.id ?? ''), eq(checkIns.day, day)));
    expect(rows?.value).toBe(1);
    const [logged] = await t.database.db.select({ value: count() }).from(scanLog).where(eq(scanLog.code, code));
    expect(logged?.value).toBe(CONCURRENT_SCANS);
  }
});
