import { apiPaths, ApiErrorBody, LogoutResponse, UserMe } from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { users } from '../src/db/schema.ts';
import { DEMO_USER } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '1' } });
});
afterAll(async () => {
  await t.close();
});

function sessionCookieOf(response: { cookies: Array<{ name: string; value: string }> }) {
  return response.cookies.find((cookie) => cookie.name === 'gatecheck_session');
}

test('staff can sign in with their email and read their record with the bearer token', async () => {
  const token = await login(t.app, DEMO_USER.email, DEMO_USER.password);
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  const me = UserMe.parse(response.json());
  expect(me).toMatchObject({ displayName: 'Demo Staff', username: 'demo', email: 'demo@example.com', country: 'GB' });
  expect(me.settings).toEqual({ emailNotifications: false, smsNotifications: false, marketingEmails: false, eventReminders: true });
  expect(Number.isNaN(Date.parse(me.createdAt ?? ''))).toBe(false);
});

test('staff can sign in with their username, in any letter case', async () => {
  const token = await login(t.app, 'DEMO', DEMO_USER.password);
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expect(login(t.app, 'Demo@Example.com', DEMO_USER.password)).resolves.toBeTruthy();
});

test('a wrong password or an unknown account is a 401 with the message the login screen shows', async () => {
  for (const email of [DEMO_USER.email, 'nobody@example.com']) {
    const response = await t.app.inject({ method: 'POST', url: api(apiPaths.login), payload: { email, password: 'wrong-password' } });
    expect(response.statusCode).toBe(401);
    expect(ApiErrorBody.parse(response.json())).toEqual({ code: 'invalid_credentials', message: 'Invalid email/username or password' });
  }
});

test('passwords are stored as argon2id hashes', async () => {
  const [row] = await t.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.username, 'demo'));
  expect(row?.hash).toMatch(/^\$argon2id\$/);
});

test('login with useCookie sets an HttpOnly SameSite=Lax cookie that authenticates /users/me', async () => {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.login),
    payload: { email: 'demo', password: DEMO_USER.password, useCookie: true },
  });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toHaveProperty('token');
  const setCookie = String(response.headers['set-cookie']);
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
  expect(setCookie).not.toMatch(/Secure/i);
  const cookie = sessionCookieOf(response);
  expect(cookie?.value).toBe(response.json().token);

  const me = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), cookies: { gatecheck_session: cookie?.value ?? '' } });
  expect(me.statusCode).toBe(200);
  expect(UserMe.parse(me.json()).username).toBe('demo');
});

test('the session cookie is Secure when the request came over https', async () => {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.login),
    headers: { 'x-forwarded-proto': 'https' },
    payload: { email: 'demo', password: DEMO_USER.password, useCookie: true },
  });
  expect(String(response.headers['set-cookie'])).toMatch(/Secure/i);
});

test('login without useCookie sets no cookie', async () => {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.login), payload: { email: 'demo', password: DEMO_USER.password } });
  expect(response.headers['set-cookie']).toBeUndefined();
});

test('/users/me without a session, or with an unknown token, is a 401', async () => {
  const anonymous = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe) });
  expect(anonymous.statusCode).toBe(401);
  expect(ApiErrorBody.parse(anonymous.json()).code).toBe('unauthenticated');
  const unknown = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer('not-a-real-token') });
  expect(unknown.statusCode).toBe(401);
});

test('an expired session is a 401', async () => {
  const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'demo'));
  const session = await createSession(t.database.db, row?.id ?? '', -1000);
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(session.token) });
  expect(response.statusCode).toBe(401);
});

test('logout revokes a bearer session', async () => {
  const token = await login(t.app, 'demo', DEMO_USER.password);
  const logout = await t.app.inject({ method: 'POST', url: api(apiPaths.logout), headers: bearer(token), payload: {} });
  expect(logout.statusCode).toBe(200);
  expect(LogoutResponse.parse(logout.json())).toEqual({ success: true });
  const me = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(token) });
  expect(me.statusCode).toBe(401);
});

test('logout revokes a cookie session and clears the cookie', async () => {
  const signIn = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.login),
    payload: { email: 'demo', password: DEMO_USER.password, useCookie: true },
  });
  const token = sessionCookieOf(signIn)?.value ?? '';
  const logout = await t.app.inject({ method: 'POST', url: api(apiPaths.logout), cookies: { gatecheck_session: token }, payload: {} });
  expect(logout.statusCode).toBe(200);
  const cleared = sessionCookieOf(logout);
  expect(cleared?.value).toBe('');
  const me = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), cookies: { gatecheck_session: token } });
  expect(me.statusCode).toBe(401);
});

test('logout answers 200 even when not signed in', async () => {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.logout), payload: {} });
  expect(response.statusCode).toBe(200);
});

test('login with a missing password is a 400 naming the field', async () => {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.login), payload: { email: 'demo' } });
  expect(response.statusCode).toBe(400);
  expect(ApiErrorBody.parse(response.json())).toMatchObject({ code: 'validation_failed', field: 'body.password' });
});
