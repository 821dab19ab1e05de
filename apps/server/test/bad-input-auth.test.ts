/**
 * Property-based bad input on the /auth routes: ≥ 1,000 generated bodies per route, each answered
 * with a 4xx `{ code, message }` without internals (or a 2xx when the body happened to be valid).
 */
import { apiPaths } from '@gatecheck/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_USER } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import {
  anyString,
  assertSafeForAll,
  bodyLike,
  expectSafeAnswer,
  plainEmail,
  postOf,
  rawBody,
  RUNS_PER_ROUTE,
  UNTHROTTLED_ENV,
} from './bad-input-arbitraries.ts';
import { userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let demoUserId: string;
beforeAll(async () => {
  t = await createTestApp({ env: UNTHROTTLED_ENV });
  demoUserId = await userIdOf(t.database.db, DEMO_USER.username);
});
afterAll(async () => {
  await t.close();
});

/** A fresh session of the demo user, so a body that happens to be valid cannot spoil later runs. */
async function freshToken(): Promise<string> {
  return (await createSession(t.database.db, demoUserId, 60_000)).token;
}

const password = fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constant(DEMO_USER.password));
const identifier = fc.oneof(plainEmail, fc.constantFrom(DEMO_USER.username, DEMO_USER.email.toUpperCase()));

const ROUTES = [
  {
    path: apiPaths.login,
    body: bodyLike({ email: identifier, password, useCookie: fc.boolean() }),
    signedIn: false,
  },
  {
    path: apiPaths.register,
    body: bodyLike({
      name: fc.string({ minLength: 1, maxLength: 30 }),
      username: fc.stringMatching(/^[a-zA-Z0-9._-]{3,20}$/),
      email: plainEmail,
      password: fc.string({ minLength: 8, maxLength: 30 }),
      country: fc.constantFrom('', 'NL', 'gb', 'x'),
    }),
    signedIn: false,
  },
  { path: apiPaths.logout, body: bodyLike({}), signedIn: true },
  {
    path: apiPaths.changePassword,
    body: bodyLike({ currentPassword: fc.string({ minLength: 1, maxLength: 30 }), newPassword: fc.string({ minLength: 8, maxLength: 30 }) }),
    signedIn: true,
  },
  { path: apiPaths.forgotPassword, body: bodyLike({ email: plainEmail }), signedIn: false },
  {
    path: apiPaths.resetPassword,
    body: bodyLike({ token: fc.oneof(fc.base64String({ maxLength: 44 }), anyString), newPassword: fc.string({ minLength: 8, maxLength: 30 }) }),
    signedIn: false,
  },
];

for (const route of ROUTES) {
  test(`POST ${route.path} answers ${RUNS_PER_ROUTE} generated bodies with a 4xx { code, message } or a valid answer, never a 5xx`, async () => {
    await assertSafeForAll(rawBody(route.body), async (body) => {
      const headers = route.signedIn ? bearer(await freshToken()) : {};
      return expectSafeAnswer(t.app, postOf(api(route.path), body, headers));
    });
  }, 180_000);
}

test('the demo password still works after all the generated traffic', async () => {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.login), payload: { email: DEMO_USER.username, password: DEMO_USER.password } });
  expect(response.statusCode).toBe(200);
});
