/**
 * Property-based bad input on the scanning-flow routes: ≥ 1,000 generated requests per route
 * (bodies for POST /tickets/verify; credentials, query strings and path ids for the GET routes), each
 * answered with a 4xx `{ code, message }` without internals, or a valid answer.
 */
import { apiPaths, organizationEventsPath } from '@gatecheck/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_USER } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import { anyString, assertSafeForAll, bodyLike, expectSafeAnswer, nastyString, postOf, rawBody, UNTHROTTLED_ENV } from './bad-input-arbitraries.ts';
import { createOutsider, demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let demoUserId: string;
let ids: Awaited<ReturnType<typeof demoIds>>;
let other: Awaited<ReturnType<typeof createOutsider>>;
let codes: string[];
beforeAll(async () => {
  t = await createTestApp({ env: UNTHROTTLED_ENV });
  demoUserId = await userIdOf(t.database.db, DEMO_USER.username);
  ids = await demoIds(t.database.db);
  other = await createOutsider(t.database.db);
  codes = (t.demo?.tickets ?? []).map((ticket) => ticket.code);
});
afterAll(async () => {
  await t.close();
});

async function freshToken(): Promise<string> {
  return (await createSession(t.database.db, demoUserId, 60_000)).token;
}

/** Printable ASCII, as HTTP header values allow. */
const headerText = fc.stringMatching(/^[\x21-\x7e]{0,80}$/);

/** How a request presents (or fails to present) credentials. */
const credentials = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'valid-bearer' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 2, arbitrary: headerText.map((text) => ({ kind: 'header' as const, value: `Bearer ${text}` })) },
  { weight: 1, arbitrary: headerText.map((text) => ({ kind: 'header' as const, value: text })) },
  { weight: 1, arbitrary: fc.stringMatching(/^[\x21-\x3a\x3c-\x7e]{0,80}$/).map((text) => ({ kind: 'cookie' as const, value: text })) },
);

type Credentials = typeof credentials extends fc.Arbitrary<infer C> ? C : never;

async function headersFor(presented: Credentials): Promise<Record<string, string>> {
  switch (presented.kind) {
    case 'valid-bearer':
      return bearer(await freshToken());
    case 'none':
      return {};
    case 'header':
      return { authorization: presented.value };
    case 'cookie':
      return { cookie: `gatecheck_session=${presented.value}` };
  }
}

const queryString = fc.option(
  fc.dictionary(fc.oneof(fc.stringMatching(/^[a-z]{1,6}$/), anyString), fc.oneof(anyString, nastyString), { maxKeys: 3 }).map(
    (params) => `?${new URLSearchParams(params).toString()}`,
  ),
  { nil: '' },
);

for (const path of [apiPaths.usersMe, apiPaths.organizations]) {
  test(`GET ${path} answers 1000 generated credentials and query strings safely`, async () => {
    await assertSafeForAll(fc.tuple(credentials, queryString), async ([presented, query]) =>
      expectSafeAnswer(t.app, { method: 'GET', url: `${api(path)}${query}`, headers: await headersFor(presented) }),
    );
  }, 180_000);
}

test('GET /organizations/membership/{organizationId} answers 1000 generated ids safely', async () => {
  const organizationId = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(ids.organizationId, other.organizationId) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 4, arbitrary: anyString.filter((id) => id.length > 0) },
  );
  await assertSafeForAll(fc.tuple(organizationId, credentials), async ([id, presented]) =>
    expectSafeAnswer(t.app, { method: 'GET', url: api(organizationEventsPath(id)), headers: await headersFor(presented) }),
  );
}, 180_000);

test('POST /tickets/verify answers 1000 generated bodies with a 4xx { code, message } or a verdict, never a 5xx', async () => {
  const body = bodyLike({
    eventId: fc.oneof(fc.constantFrom(ids.liveEventId, ids.singleDayEventId, other.eventId), fc.uuid()),
    qrCode: fc.oneof(fc.constantFrom(...codes), fc.string({ minLength: 1, maxLength: 40 }), nastyString),
    day: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: -10, max: 1000 })),
    scanId: fc.uuid(),
  });
  await assertSafeForAll(fc.tuple(rawBody(body), credentials), async ([raw, presented]) =>
    expectSafeAnswer(t.app, postOf(api(apiPaths.verifyTicket), raw, await headersFor(presented))),
  );
}, 180_000);

test('the scan log holds every hostile code as plain text', async () => {
  const hostile = "'; DROP TABLE tickets; --<script>";
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(await freshToken()),
    payload: { eventId: ids.liveEventId, qrCode: hostile, day: 1 },
  });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toMatchObject({ isValid: false, reason: 'not_found' });
  const still = await t.app.inject({ method: 'GET', url: api(organizationEventsPath(ids.organizationId)), headers: bearer(await freshToken()) });
  expect(still.statusCode).toBe(200);
});
