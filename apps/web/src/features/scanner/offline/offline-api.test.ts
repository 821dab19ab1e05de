import { apiPaths, type OfflineScanBatchResponse } from '@gatecheck/contract';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { writeStoredUser } from '@/lib/stored-user.ts';
import { testDay, testEvent, testUser } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { roundSender } from './offline-api.ts';

test("an upload round stays under the session it began with, even when another user signs in meanwhile (decision 077)", async () => {
  const tokens: Array<string | null> = [];
  server.use(
    http.post(apiUrl(apiPaths.offlineScans), ({ request }) => {
      tokens.push(request.headers.get('Authorization'));
      return HttpResponse.json<OfflineScanBatchResponse>({ receivedAt: new Date().toISOString(), results: [] });
    }),
  );
  await writeStoredUser({ ...testUser, token: 'token-of-staff-a' });
  const send = await roundSender();
  await send(testEvent.id, testDay.day, []);
  // A logs out and B signs in while the round is still on its way.
  await writeStoredUser({ ...testUser, id: 'user-b', token: 'token-of-staff-b' });
  await send(testEvent.id, testDay.day, []);
  expect(tokens).toEqual(['Bearer token-of-staff-a', 'Bearer token-of-staff-a']);
  // The next round is B's.
  await (await roundSender())(testEvent.id, testDay.day, []);
  expect(tokens.at(-1)).toBe('Bearer token-of-staff-b');
});
