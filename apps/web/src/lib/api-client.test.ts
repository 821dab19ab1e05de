import { apiPaths, UserMe } from '@gatecheck/contract';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { testUser, wireUser } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { ApiError, apiRequest } from './api-client.ts';
import { writeStoredUser } from './stored-user.ts';

test('calls go to the configured base, /api by default, on the page origin', () => {
  expect(apiUrl(apiPaths.usersMe)).toBe(`${window.location.origin}/api/users/me`);
});

test('a 2xx answer is parsed with the contract schema', async () => {
  await expect(apiRequest(apiPaths.usersMe, { schema: UserMe })).resolves.toEqual(wireUser);
});

test('the stored session token is sent as a bearer token, with cookies included', async () => {
  await writeStoredUser(testUser);
  let seen: { authorization: string | null; credentials: RequestCredentials } | undefined;
  server.use(
    http.get(apiUrl(apiPaths.usersMe), ({ request }) => {
      seen = { authorization: request.headers.get('Authorization'), credentials: request.credentials };
      return HttpResponse.json(wireUser);
    }),
  );
  await apiRequest(apiPaths.usersMe, { schema: UserMe });
  expect(seen).toEqual({ authorization: `Bearer ${testUser.token}`, credentials: 'include' });
});

test('no bearer token is sent when none is stored or when the caller opts out', async () => {
  const seen: (string | null)[] = [];
  server.use(
    http.get(apiUrl(apiPaths.usersMe), ({ request }) => {
      seen.push(request.headers.get('Authorization'));
      return HttpResponse.json(wireUser);
    }),
  );
  await apiRequest(apiPaths.usersMe, { schema: UserMe });
  await writeStoredUser(testUser);
  await apiRequest(apiPaths.usersMe, { schema: UserMe, token: null });
  await apiRequest(apiPaths.usersMe, { schema: UserMe, token: 'fresh' });
  expect(seen).toEqual([null, null, 'Bearer fresh']);
});

test('a POST sends its body as JSON', async () => {
  let received: unknown;
  server.use(
    http.post(apiUrl(apiPaths.logout), async ({ request }) => {
      received = { contentType: request.headers.get('Content-Type'), body: await request.json() };
      return HttpResponse.json({ success: true, message: 'ok' });
    }),
  );
  await apiRequest(apiPaths.logout, { method: 'POST', body: {}, schema: z.unknown() });
  expect(received).toEqual({ contentType: 'application/json', body: {} });
});

test('an error answer becomes an ApiError with its status, code and message', async () => {
  server.use(http.get(apiUrl(apiPaths.usersMe), () => HttpResponse.json({ code: 'unauthenticated', message: 'Sign in first' }, { status: 401 })));
  const error = await apiRequest(apiPaths.usersMe, { schema: UserMe }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status: 401, code: 'unauthenticated', message: 'Sign in first' });
});

test('an error answer without a JSON body still carries its status', async () => {
  server.use(http.get(apiUrl(apiPaths.usersMe), () => new HttpResponse('oops', { status: 502, statusText: 'Bad Gateway' })));
  await expect(apiRequest(apiPaths.usersMe, { schema: UserMe })).rejects.toMatchObject({ status: 502, code: 'http_error' });
});

test('a failed network call becomes an ApiError with status 0 and code network_error', async () => {
  server.use(http.get(apiUrl(apiPaths.usersMe), () => HttpResponse.error()));
  await expect(apiRequest(apiPaths.usersMe, { schema: UserMe })).rejects.toMatchObject({ status: 0, code: 'network_error' });
});

test('a 2xx answer that does not match the contract is refused as invalid_response', async () => {
  server.use(http.get(apiUrl(apiPaths.usersMe), () => HttpResponse.json({ id: 42 })));
  await expect(apiRequest(apiPaths.usersMe, { schema: UserMe })).rejects.toMatchObject({ status: 200, code: 'invalid_response' });
});
