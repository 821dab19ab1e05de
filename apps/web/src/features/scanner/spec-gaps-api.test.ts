/** SPEC §7 POST tickets/verify: the bearer token and the credentials go with every check. */
import { apiPaths, type VerifyTicketResponse } from '@gatecheck/contract';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { writeStoredUser } from '@/lib/stored-user.ts';
import { TEST_TOKEN, testUser } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { verifyTicket } from './api.ts';

test('a ticket check is sent with the bearer token and credentials included', async () => {
  await writeStoredUser(testUser);
  let seen: { authorization: string | null; credentials: RequestCredentials; contentType: string | null } | undefined;
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), ({ request }) => {
      seen = { authorization: request.headers.get('Authorization'), credentials: request.credentials, contentType: request.headers.get('Content-Type') };
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true });
    }),
  );
  await verifyTicket({ eventId: 'event-1', day: 2, qrCode: 'GC-1', scanId: '7b0e4a52-6c0b-4d55-9f39-0b8f0c5f1a11' });
  expect(seen).toEqual({ authorization: `Bearer ${TEST_TOKEN}`, credentials: 'include', contentType: 'application/json' });
});
