import { ApiErrorBody, apiPaths, AuthOptionsResponse } from '@gatecheck/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { users } from '../src/db/schema.ts';
import { ACCOUNT_MESSAGES } from '../src/services/accounts.ts';
import { api, createTestApp, type TestApp } from './helpers/test-app.ts';

const ACCOUNT = { name: 'Walk In', username: 'walkin', email: 'walkin@example.org', password: 'walk-in-password', country: '' };

let closed: TestApp;
let open: TestApp;
beforeAll(async () => {
  // The helper allows sign-up for the other suites; ALLOW_SIGNUP unset here would mean the same as 'false'.
  [closed, open] = await Promise.all([createTestApp({ env: { ALLOW_SIGNUP: 'false' } }), createTestApp({ env: { ALLOW_SIGNUP: 'true' } })]);
});
afterAll(async () => {
  await Promise.all([closed.close(), open.close()]);
});

async function countUsers(t: TestApp): Promise<number> {
  const [row] = await t.database.db.select({ count: sql<number>`count(*)::int` }).from(users);
  return row?.count ?? 0;
}

test('with sign-up off (the default) the server says so and register answers 403 without creating an account', async () => {
  const options = await closed.app.inject({ method: 'GET', url: api(apiPaths.authOptions) });
  expect(options.statusCode).toBe(200);
  expect(AuthOptionsResponse.parse(options.json())).toEqual({ isSignUpAllowed: false });

  const before = await countUsers(closed);
  const response = await closed.app.inject({ method: 'POST', url: api(apiPaths.register), payload: ACCOUNT });
  expect(response.statusCode).toBe(403);
  expect(ApiErrorBody.parse(response.json())).toEqual({ code: 'forbidden', message: ACCOUNT_MESSAGES.signUpClosed });
  expect(await countUsers(closed)).toBe(before);
});

test('with ALLOW_SIGNUP=true the server offers sign-up and register creates the account', async () => {
  const options = await open.app.inject({ method: 'GET', url: api(apiPaths.authOptions) });
  expect(AuthOptionsResponse.parse(options.json())).toEqual({ isSignUpAllowed: true });
  const response = await open.app.inject({ method: 'POST', url: api(apiPaths.register), payload: ACCOUNT });
  expect(response.statusCode).toBe(201);
  const login = await open.app.inject({ method: 'POST', url: api(apiPaths.login), payload: { email: ACCOUNT.username, password: ACCOUNT.password } });
  expect(login.statusCode).toBe(200);
});
