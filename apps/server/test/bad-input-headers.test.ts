/**
 * Property-based bad input beyond the bodies (bad-input-auth and bad-input-scan cover ≥ 1,000 bodies
 * per route): hostile headers on every POST route (credentials, cookies, Origin/Referer for the CSRF
 * check, forwarded addresses, content types), and unknown methods and paths under /api. Every answer
 * is a 4xx `{ code, message }` without internals, or a valid answer; never a 5xx.
 */
import { apiPaths, organizationEventsPath } from '@gatecheck/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_USER } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import { anyString, expectSafeAnswer, nastyString, plainEmail, RUNS_PER_ROUTE, UNTHROTTLED_ENV } from './bad-input-arbitraries.ts';
import { demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let demoUserId: string;
let ids: Awaited<ReturnType<typeof demoIds>>;
let codes: string[];
beforeAll(async () => {
  t = await createTestApp({ env: UNTHROTTLED_ENV });
  demoUserId = await userIdOf(t.database.db, DEMO_USER.username);
  ids = await demoIds(t.database.db);
  codes = (t.demo?.tickets ?? []).map((ticket) => ticket.code);
});
afterAll(async () => {
  await t.close();
});

/** Printable ASCII, as HTTP header values allow. */
const headerText = fc.stringMatching(/^[\x20-\x7e]{0,120}$/);

/** A header value: junk, hostile, or plausible. */
const headerValue = fc.oneof(headerText, nastyString.filter((text) => /^[\x20-\x7e]*$/.test(text)), fc.webUrl(), fc.constantFrom('null', 'http://localhost', 'capacitor://localhost'));

/** What the request says about who sends it. */
const presented = fc.record(
  {
    credential: fc.constantFrom('valid-bearer', 'valid-cookie', 'junk-bearer', 'junk-cookie', 'none'),
    junk: headerText,
    origin: headerValue,
    referer: headerValue,
    forwardedFor: fc.oneof(fc.ipV4(), fc.ipV6(), headerText),
    contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1', 'application/vnd.api+json'),
  },
  { requiredKeys: ['credential', 'contentType'] },
);

type Presented = typeof presented extends fc.Arbitrary<infer P> ? P : never;

async function headersFor(sent: Presented): Promise<Record<string, string>> {
  const headers: Record<string, string> = { 'content-type': sent.contentType };
  if (sent.origin !== undefined) headers.origin = sent.origin;
  if (sent.referer !== undefined) headers.referer = sent.referer;
  if (sent.forwardedFor !== undefined) headers['x-forwarded-for'] = sent.forwardedFor;
  switch (sent.credential) {
    case 'valid-bearer':
      headers.authorization = `Bearer ${(await createSession(t.database.db, demoUserId, 60_000)).token}`;
      break;
    case 'valid-cookie':
      headers.cookie = `gatecheck_session=${(await createSession(t.database.db, demoUserId, 60_000)).token}`;
      break;
    case 'junk-bearer':
      headers.authorization = `Bearer ${sent.junk ?? ''}`;
      break;
    case 'junk-cookie':
      headers.cookie = sent.junk ?? '';
      break;
    case 'none':
      break;
  }
  return headers;
}

/** A plausible body for each POST route, so the headers, not the body, decide the answer. */
const postRoutes = fc.oneof(
  fc.record({ path: fc.constant(apiPaths.login), body: fc.record({ email: fc.oneof(plainEmail, fc.constant(DEMO_USER.username)), password: fc.string({ maxLength: 20 }) }) }),
  fc.record({
    path: fc.constant(apiPaths.register),
    body: fc.record({ name: fc.string({ minLength: 1, maxLength: 20 }), username: fc.stringMatching(/^[a-z0-9]{3,12}$/), email: plainEmail, password: fc.string({ minLength: 8, maxLength: 20 }) }),
  }),
  fc.record({ path: fc.constant(apiPaths.logout), body: fc.constant({}) }),
  fc.record({ path: fc.constant(apiPaths.changePassword), body: fc.record({ currentPassword: fc.string({ minLength: 1, maxLength: 20 }), newPassword: fc.string({ minLength: 8, maxLength: 20 }) }) }),
  fc.record({ path: fc.constant(apiPaths.forgotPassword), body: fc.record({ email: plainEmail }) }),
  fc.record({ path: fc.constant(apiPaths.resetPassword), body: fc.record({ token: fc.base64String({ maxLength: 44 }), newPassword: fc.string({ minLength: 8, maxLength: 20 }) }) }),
  fc.record({
    path: fc.constant(apiPaths.verifyTicket),
    // eventId and qrCode are filled in from the seeded data when sent.
    body: fc.record({ day: fc.integer({ min: 1, max: 3 }) }),
  }),
);

test(`every POST route answers ${RUNS_PER_ROUTE} requests with generated credentials, cookies, Origin, Referer, forwarded addresses and content types safely`, async () => {
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(postRoutes, presented, async (route, sent) => {
      const body = route.path === apiPaths.verifyTicket ? { ...route.body, eventId: ids.liveEventId, qrCode: codes[0] ?? '' } : route.body;
      const answer = await expectSafeAnswer(t.app, { method: 'POST', url: api(route.path), payload: JSON.stringify(body), headers: await headersFor(sent) });
      seen.add(`${route.path} ${answer.status}`);
    }),
    { numRuns: RUNS_PER_ROUTE },
  );
  // The generator reaches past the checks too: some requests are answered 200 (valid ones).
  expect([...seen].some((entry) => entry.endsWith(' 200'))).toBe(true);
  expect(new Set([...seen].map((entry) => entry.split(' ')[0]))).toEqual(
    new Set([apiPaths.login, apiPaths.register, apiPaths.logout, apiPaths.changePassword, apiPaths.forgotPassword, apiPaths.resetPassword, apiPaths.verifyTicket]),
  );
}, 180_000);

/** Known paths, known paths with junk appended, and made-up ones, percent-encoded as a client would. */
const apiPath = fc.oneof(
  fc.constantFrom(...Object.values(apiPaths).filter((path) => !path.includes(':')), organizationEventsPath('x')),
  fc.tuple(fc.constantFrom(...Object.values(apiPaths)), anyString).map(([path, junk]) => `${path}/${encodeURIComponent(junk.slice(0, 300))}`),
  fc.array(fc.oneof(fc.stringMatching(/^[a-z-]{1,12}$/), anyString.map((text) => encodeURIComponent(text.slice(0, 100)))), { minLength: 1, maxLength: 4 }).map(
    (segments) => `/${segments.join('/')}`,
  ),
);

test(`${RUNS_PER_ROUTE} generated methods and paths under /api answer a 4xx { code, message } or a valid answer, never a 5xx`, async () => {
  let notFound = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), apiPath, fc.option(fc.jsonValue(), { nil: undefined }), async (method, path, body) => {
      const answer = await expectSafeAnswer(t.app, {
        method,
        url: api(path),
        ...(body === undefined || method === 'GET' ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      if (answer.status === 404) notFound += 1;
    }),
    { numRuns: RUNS_PER_ROUTE },
  );
  expect(notFound).toBeGreaterThan(0);
}, 180_000);
