import { apiPaths, ApiErrorBody, organizationEventsPath, VerifyTicketResponse } from '@gatecheck/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_USER } from '../src/db/seed.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

// Property-based bad input (issue 4) for the scanning routes (the /auth routes: bad-input-auth.test.ts):
// generated input never gets a 5xx or internals, only a 4xx `{ code, message }` or a valid answer.
const RUNS = 1000;

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

const nasty = fc.oneof(
  fc.string(),
  fc.constantFrom("' OR 1=1 --", '<script>alert(1)</script>', '../../etc/passwd', '\u0000', '%00', '{"$ne":null}', 'GC-'.padEnd(600, 'A')),
);
const anyJson = fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom('eventId', 'qrCode', 'day', 'scanId', 'email', 'password', 'useCookie'), fc.oneof(fc.jsonValue(), nasty)));

function expectWellFormed(statusCode: number, body: string) {
  expect(statusCode).toBeLessThan(500);
  expect(body).not.toMatch(/stack|node_modules|\.ts:\d+/);
  if (statusCode >= 400) ApiErrorBody.parse(JSON.parse(body));
}

test(`${RUNS} generated verify bodies get a verdict or a 4xx, never a 5xx`, async () => {
  const body = fc.oneof(
    anyJson,
    fc.record({ eventId: fc.oneof(fc.constant(liveEventId), nasty), qrCode: nasty, day: fc.oneof(fc.integer(), fc.double(), nasty) }),
    fc.record({ eventId: fc.constant(liveEventId), qrCode: nasty, day: fc.integer({ min: -5, max: 400 }), scanId: fc.option(fc.uuid(), { nil: undefined }) }),
  );
  await fc.assert(
    fc.asyncProperty(body, async (payload) => {
      const response = await t.app.inject({
        method: 'POST',
        url: api(apiPaths.verifyTicket),
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expectWellFormed(response.statusCode, response.body);
      if (response.statusCode === 200) VerifyTicketResponse.parse(response.json());
    }),
    { numRuns: RUNS },
  );
});

test(`${RUNS} generated organization ids get a 4xx (403, 404, 414 for over-long ids), never a 5xx`, async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(nasty.filter((id) => id.length > 0), fc.uuid()), async (id) => {
      const response = await t.app.inject({ method: 'GET', url: api(organizationEventsPath(id)), headers: bearer(token) });
      expectWellFormed(response.statusCode, response.body);
      expect([400, 403, 404, 414]).toContain(response.statusCode);
    }),
    { numRuns: RUNS },
  );
});
