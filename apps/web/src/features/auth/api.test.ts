import { apiPaths, type LoginRequest } from '@gatecheck/contract';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { isServerUnreachable, reportServerAnswered } from '@/lib/reachability.ts';
import { selectDay, selectEvent, selectOrganization, getSelection } from '@/lib/selection.ts';
import { readStoredUser, writeStoredUser } from '@/lib/stored-user.ts';
import { TEST_TOKEN, testDay, testEvent, testOrganization, testUser, wireUser } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { changePassword, forgotPassword, lookupCountryCode, register, resetPassword } from './account-api.ts';
import { checkSession, login, logout } from './api.ts';

describe('login (SPEC §4, §7)', () => {
  test('posts the identifier as email with useCookie on the web, then reads the user with the bearer token', async () => {
    const calls: string[] = [];
    let loginBody: LoginRequest | undefined;
    server.use(
      http.post(apiUrl(apiPaths.login), async ({ request }) => {
        loginBody = (await request.json()) as LoginRequest;
        calls.push(`login auth=${request.headers.get('Authorization')}`);
        return HttpResponse.json({ sessionToken: 'from-session-token' });
      }),
      http.get(apiUrl(apiPaths.usersMe), ({ request }) => {
        calls.push(`me auth=${request.headers.get('Authorization')}`);
        return HttpResponse.json(wireUser);
      }),
    );
    const user = await login({ identifier: 'demo@example.com', password: 'demo-scanner' });
    expect(loginBody).toEqual({ email: 'demo@example.com', password: 'demo-scanner', useCookie: true });
    expect(calls).toEqual(['login auth=null', 'me auth=Bearer from-session-token']);
    expect(user).toMatchObject({ name: 'Dana Demo', token: 'from-session-token' });
  });

  test('the signed-in user is stored with its token', async () => {
    await login({ identifier: 'demo', password: 'demo-scanner' });
    expect(await readStoredUser()).toMatchObject({ id: 'user-1', token: TEST_TOKEN });
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ username: 'demo', token: TEST_TOKEN });
  });

  test('a wrong password rejects with the server message and stores nothing', async () => {
    server.use(http.post(apiUrl(apiPaths.login), () => errorResponse(401, { code: 'invalid_credentials', message: 'Invalid email/username or password' })));
    await expect(login({ identifier: 'demo', password: 'nope' })).rejects.toMatchObject({ status: 401, message: 'Invalid email/username or password' });
    expect(await readStoredUser()).toBeNull();
  });

  test('an answer without a token fails with Login failed', async () => {
    server.use(http.post(apiUrl(apiPaths.login), () => HttpResponse.json({})));
    await expect(login({ identifier: 'demo', password: 'pw' })).rejects.toThrow('Login failed');
  });

  test('a users/me failure after login fails with Failed to fetch user data (SPEC §8)', async () => {
    server.use(http.get(apiUrl(apiPaths.usersMe), () => errorResponse(500, { code: 'internal_error', message: 'x' })));
    await expect(login({ identifier: 'demo', password: 'pw' })).rejects.toThrow('Failed to fetch user data');
    expect(await readStoredUser()).toBeNull();
  });
});

describe('session check on the web (SPEC §4, §7)', () => {
  test('no stored user means signed out without asking the server', async () => {
    server.use(http.get(apiUrl(apiPaths.usersMe), () => HttpResponse.error()));
    await expect(checkSession()).resolves.toEqual({ user: null });
  });

  test('a stored user is confirmed with GET /users/me using the cookie, not the bearer token', async () => {
    await writeStoredUser(testUser);
    let seen: { authorization: string | null; credentials: RequestCredentials } | undefined;
    server.use(
      http.get(apiUrl(apiPaths.usersMe), ({ request }) => {
        seen = { authorization: request.headers.get('Authorization'), credentials: request.credentials };
        return HttpResponse.json({ ...wireUser, displayName: 'Dana D.' });
      }),
    );
    const session = await checkSession();
    expect(seen).toEqual({ authorization: null, credentials: 'include' });
    expect(session.user).toMatchObject({ name: 'Dana D.', token: TEST_TOKEN });
  });

  test('a refused session check deletes the stored user: Session expired (SPEC §8)', async () => {
    await writeStoredUser(testUser);
    server.use(http.get(apiUrl(apiPaths.usersMe), () => errorResponse(401, { code: 'unauthenticated', message: 'no' })));
    await expect(checkSession()).resolves.toEqual({ user: null, reason: 'session_expired' });
    expect(localStorage.getItem('user')).toBeNull();
  });

  test('an unreachable server keeps the stored user signed in, unconfirmed, and marks the server unreachable (issue 12, decision 056)', async () => {
    await writeStoredUser(testUser);
    reportServerAnswered();
    server.use(http.get(apiUrl(apiPaths.usersMe), () => HttpResponse.error()));
    await expect(checkSession()).resolves.toEqual({ user: testUser, isUnconfirmed: true });
    expect(await readStoredUser()).toEqual(testUser);
    expect(isServerUnreachable()).toBe(true);
  });

  test('a server error or a page that is not a user (a captive portal) keeps the stored user, unconfirmed', async () => {
    await writeStoredUser(testUser);
    server.use(http.get(apiUrl(apiPaths.usersMe), () => errorResponse(500, { code: 'internal_error', message: 'x' })));
    await expect(checkSession()).resolves.toEqual({ user: testUser, isUnconfirmed: true });
    server.use(http.get(apiUrl(apiPaths.usersMe), () => HttpResponse.text('<html>Sign in to the venue Wi-Fi</html>')));
    await expect(checkSession()).resolves.toEqual({ user: testUser, isUnconfirmed: true });
    expect(await readStoredUser()).toEqual(testUser);
  });

  test('a server that does not answer within the timeout keeps the stored user, unconfirmed, and marks it unreachable', async () => {
    await writeStoredUser(testUser);
    reportServerAnswered();
    server.use(http.get(apiUrl(apiPaths.usersMe), async () => {
      await delay('infinite');
      return HttpResponse.json(wireUser);
    }));
    await expect(checkSession(undefined, 50)).resolves.toEqual({ user: testUser, isUnconfirmed: true });
    expect(isServerUnreachable()).toBe(true);
  });

  test('a cancelled session check is not taken for an offline start', async () => {
    await writeStoredUser(testUser);
    server.use(http.get(apiUrl(apiPaths.usersMe), async () => {
      await delay('infinite');
      return HttpResponse.json(wireUser);
    }));
    const cancel = new AbortController();
    const check = checkSession(cancel.signal);
    cancel.abort();
    await expect(check).rejects.toMatchObject({ code: 'network_error' });
  });
});

describe('logout (SPEC §4, §7)', () => {
  test('posts an empty JSON body with the bearer token, then clears the user and every selection', async () => {
    await writeStoredUser(testUser);
    await selectOrganization(testOrganization);
    await selectEvent(testEvent);
    await selectDay(testDay);
    let seen: { body: unknown; authorization: string | null; credentials: RequestCredentials } | undefined;
    server.use(
      http.post(apiUrl(apiPaths.logout), async ({ request }) => {
        seen = { body: await request.json(), authorization: request.headers.get('Authorization'), credentials: request.credentials };
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await logout();
    expect(seen).toEqual({ body: {}, authorization: `Bearer ${TEST_TOKEN}`, credentials: 'include' });
    expect(localStorage.length).toBe(0);
    expect(getSelection()).toEqual({ organization: null, event: null, day: null });
  });

  test('a failing logout call is ignored and everything is still cleared (SPEC §8)', async () => {
    await writeStoredUser(testUser);
    await selectOrganization(testOrganization);
    server.use(http.post(apiUrl(apiPaths.logout), () => HttpResponse.error()));
    await expect(logout()).resolves.toBeUndefined();
    expect(localStorage.length).toBe(0);
  });
});

describe('sign-up (SPEC §7, §8)', () => {
  const input = { name: 'New Staff', username: 'newstaff', email: 'new@example.com', password: 'long-enough' };

  test('sends the country code from the IP lookup', async () => {
    let body: unknown;
    server.use(
      http.get('https://ip.example.test/json', () => HttpResponse.json({ country_code: 'de' })),
      http.post(apiUrl(apiPaths.register), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ success: true, message: 'Account created' });
      }),
    );
    await expect(register(input, { ipLookupUrl: 'https://ip.example.test/json' })).resolves.toEqual({ success: true, message: 'Account created' });
    expect(body).toEqual({ ...input, country: 'DE' });
  });

  test('sends an empty country when the lookup is off (the default without configuration)', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl(apiPaths.register), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ success: true, message: 'ok' });
      }),
    );
    await register(input);
    expect(body).toMatchObject({ country: '' });
  });

  test('a failing sign-up shows the server message', async () => {
    server.use(http.post(apiUrl(apiPaths.register), () => errorResponse(409, { code: 'conflict', message: 'Username already taken' })));
    await expect(register(input)).rejects.toThrow('Username already taken');
  });

  test('a failing sign-up without a server message says Signup failed', async () => {
    server.use(http.post(apiUrl(apiPaths.register), () => HttpResponse.error()));
    await expect(register(input)).rejects.toThrow('Signup failed');
  });
});

describe('country lookup for sign-up (SPEC §7)', () => {
  const url = 'https://ip.example.test/json';

  test('reads a two-letter code from common answer shapes', async () => {
    server.use(http.get(url, () => HttpResponse.json({ countryCode: 'nl' })));
    await expect(lookupCountryCode(url)).resolves.toBe('NL');
    server.use(http.get(url, () => HttpResponse.json({ country: 'BE' })));
    await expect(lookupCountryCode(url)).resolves.toBe('BE');
  });

  test('is empty when off, failing, odd or too slow', async () => {
    await expect(lookupCountryCode(undefined)).resolves.toBe('');
    server.use(http.get(url, () => HttpResponse.error()));
    await expect(lookupCountryCode(url)).resolves.toBe('');
    server.use(http.get(url, () => HttpResponse.json({ country: 'Netherlands' })));
    await expect(lookupCountryCode(url)).resolves.toBe('');
    server.use(http.get(url, () => new Promise<never>(() => {})));
    await expect(lookupCountryCode(url, 20)).resolves.toBe('');
  });
});

describe('password calls (SPEC §7, §8)', () => {
  test('change password: success, the server message, or the fallback', async () => {
    let authorization: string | null = null;
    await writeStoredUser(testUser);
    server.use(
      http.post(apiUrl(apiPaths.changePassword), ({ request }) => {
        authorization = request.headers.get('Authorization');
        return HttpResponse.json({ success: true, message: 'done' });
      }),
    );
    await expect(changePassword({ currentPassword: 'old-secret', newPassword: 'new-secret-1' })).resolves.toEqual({ success: true, message: 'Password changed successfully' });
    expect(authorization).toBe(`Bearer ${TEST_TOKEN}`);

    server.use(http.post(apiUrl(apiPaths.changePassword), () => errorResponse(400, { code: 'invalid_credentials', message: 'Current password is wrong' })));
    await expect(changePassword({ currentPassword: 'x', newPassword: 'new-secret-1' })).resolves.toEqual({ success: false, message: 'Current password is wrong' });

    server.use(http.post(apiUrl(apiPaths.changePassword), () => HttpResponse.error()));
    await expect(changePassword({ currentPassword: 'x', newPassword: 'new-secret-1' })).resolves.toEqual({ success: false, message: 'Failed to change password' });
  });

  test('forgot password: Reset link sent, the response text, or one of the two fallbacks', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl(apiPaths.forgotPassword), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ success: true, message: 'If the address exists, a link was sent' });
      }),
    );
    await expect(forgotPassword('demo@example.com')).resolves.toEqual({ success: true, message: 'Reset link sent' });
    expect(body).toEqual({ email: 'demo@example.com' });

    server.use(http.post(apiUrl(apiPaths.forgotPassword), () => errorResponse(429, { code: 'rate_limited', message: 'Too many requests' })));
    await expect(forgotPassword('demo@example.com')).resolves.toEqual({ success: false, message: 'Too many requests' });

    server.use(http.post(apiUrl(apiPaths.forgotPassword), () => new HttpResponse(null, { status: 500 })));
    await expect(forgotPassword('demo@example.com')).resolves.toEqual({ success: false, message: 'Failed to send reset email.' });

    server.use(http.post(apiUrl(apiPaths.forgotPassword), () => HttpResponse.error()));
    await expect(forgotPassword('demo@example.com')).resolves.toEqual({ success: false, message: 'Unable to send reset email.' });
  });

  test('reset password: Password updated successfully, the response text, or one of the two fallbacks', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl(apiPaths.resetPassword), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ success: true, message: 'ok' });
      }),
    );
    await expect(resetPassword({ token: 'reset-token', newPassword: 'new-secret-1' })).resolves.toEqual({ success: true, message: 'Password updated successfully' });
    expect(body).toEqual({ token: 'reset-token', newPassword: 'new-secret-1' });

    server.use(http.post(apiUrl(apiPaths.resetPassword), () => HttpResponse.json({ success: false, message: 'Reset link expired' })));
    await expect(resetPassword({ token: 't', newPassword: 'new-secret-1' })).resolves.toEqual({ success: false, message: 'Reset link expired' });

    server.use(http.post(apiUrl(apiPaths.resetPassword), () => new HttpResponse('nope', { status: 400 })));
    await expect(resetPassword({ token: 't', newPassword: 'new-secret-1' })).resolves.toEqual({ success: false, message: 'Password reset failed' });

    server.use(http.post(apiUrl(apiPaths.resetPassword), () => HttpResponse.error()));
    await expect(resetPassword({ token: 't', newPassword: 'new-secret-1' })).resolves.toEqual({ success: false, message: 'Unable to reset password' });
  });
});
