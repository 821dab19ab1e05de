/** SPEC §7 POST /auth/change-password: the request body and its bearer token. */
import { apiPaths } from '@gatecheck/contract';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { writeStoredUser } from '@/lib/stored-user.ts';
import { TEST_TOKEN, testUser } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { changePassword } from './account-api.ts';

test('change password posts currentPassword and newPassword with the bearer token', async () => {
  await writeStoredUser(testUser);
  let seen: { body: unknown; authorization: string | null } | undefined;
  server.use(
    http.post(apiUrl(apiPaths.changePassword), async ({ request }) => {
      seen = { body: await request.json(), authorization: request.headers.get('Authorization') };
      return HttpResponse.json({ success: true, message: 'ok' });
    }),
  );
  await changePassword({ currentPassword: 'old-secret', newPassword: 'new-secret-1' });
  expect(seen).toEqual({ body: { currentPassword: 'old-secret', newPassword: 'new-secret-1' }, authorization: `Bearer ${TEST_TOKEN}` });
});
