import { apiPaths, VerifyTicketRequest, type VerifyTicketResponse } from '@gatecheck/contract';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { NO_SELECTED_EVENT_MESSAGE, verifyTicket } from './api.ts';

const check = { eventId: 'event-1', day: 2, qrCode: 'GC-1001', scanId: '7b0e4a52-6c0b-4d55-9f39-0b8f0c5f1a11' };

test('verifyTicket posts eventId, qrCode, day and scanId and maps an approval with its details', async () => {
  const bodies: VerifyTicketRequest[] = [];
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      bodies.push(VerifyTicketRequest.parse(await request.json()));
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true, eventName: 'Harbour Sound 2026', holderName: 'Ada Lovelace', ticketType: 'VIP' });
    }),
  );
  await expect(verifyTicket(check)).resolves.toEqual({
    isValid: true,
    details: { eventName: 'Harbour Sound 2026', holderName: 'Ada Lovelace', ticketType: 'VIP' },
  });
  expect(bodies).toEqual([check]);
});

test('verifyTicket maps a denial with its reason, time and staff name (a verdict, not an error)', async () => {
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), () =>
      HttpResponse.json<VerifyTicketResponse>({ isValid: false, reason: 'already_checked_in', checkedInAt: '2026-07-11T10:42:00.000Z', checkedInBy: 'Demo Staff' }),
    ),
  );
  await expect(verifyTicket(check)).resolves.toEqual({
    isValid: false,
    denial: { reason: 'already_checked_in', checkedInAt: '2026-07-11T10:42:00.000Z', checkedInBy: 'Demo Staff' },
  });
});

test('verifyTicket refuses to run without a selected event id and sends nothing', async () => {
  let requests = 0;
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), () => {
      requests++;
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true });
    }),
  );
  await expect(verifyTicket({ ...check, eventId: null })).rejects.toThrow(NO_SELECTED_EVENT_MESSAGE);
  await expect(verifyTicket({ ...check, eventId: '' })).rejects.toThrow('No selected event found.');
  expect(requests).toBe(0);
});

test('verifyTicket throws an ApiError for an error answer and for a body outside the contract', async () => {
  server.use(http.post(apiUrl(apiPaths.verifyTicket), () => errorResponse(403, { code: 'forbidden', message: 'Not a member' })));
  await expect(verifyTicket(check)).rejects.toMatchObject({ status: 403, code: 'forbidden' });

  server.use(http.post(apiUrl(apiPaths.verifyTicket), () => HttpResponse.json({ isValid: 'yes' })));
  const error = await verifyTicket(check).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ code: 'invalid_response' });
});
