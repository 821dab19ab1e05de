/**
 * MSW server for web tests, with default handlers typed (and request bodies validated) by the API
 * contract. Tests change behaviour per test with `server.use(...)`; handlers are reset after each test.
 * `apiUrl(path)` gives the absolute URL the app calls (base '/api' on the jsdom origin).
 */
import {
  apiPaths,
  LoginRequest,
  VerifyTicketRequest,
  type ApiErrorBody,
  type AuthOptionsResponse,
  type CheckInCounts,
  type CheckInLists,
  type EventSigningKeys,
  type HealthResponse,
  type OfflineConflictList,
  type OfflineScanBatchResponse,
  type EventList,
  type LoginResponse,
  type OrganizationList,
  type UserMe,
  type VerifyTicketResponse,
} from '@gatecheck/contract';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { apiUrl } from '@/lib/api-client.ts';
import { TEST_TOKEN, wireEvents, wireOrganizations, wireUser } from './fixtures.ts';

export { apiUrl };

/** A contract-shaped error answer. */
export function errorResponse(status: number, body: ApiErrorBody) {
  return HttpResponse.json<ApiErrorBody>(body, { status });
}

export const defaultHandlers = [
  http.post<never, never, LoginResponse | ApiErrorBody>(apiUrl(apiPaths.login), async ({ request }) => {
    const body = LoginRequest.safeParse(await request.json());
    if (!body.success) return errorResponse(400, { code: 'validation_failed', message: 'Invalid login request' });
    return HttpResponse.json<LoginResponse>({ token: TEST_TOKEN, expiresAt: '2030-01-01T00:00:00.000Z' });
  }),
  http.get(apiUrl(apiPaths.usersMe), () => HttpResponse.json<UserMe>(wireUser)),
  // The server's default: no self-registration (docs/decisions/018).
  http.get(apiUrl(apiPaths.authOptions), () => HttpResponse.json<AuthOptionsResponse>({ isSignUpAllowed: false })),
  http.post(apiUrl(apiPaths.logout), () => new HttpResponse(null, { status: 204 })),
  http.get(apiUrl(apiPaths.organizations), () => HttpResponse.json<OrganizationList>(wireOrganizations)),
  http.get(apiUrl(apiPaths.organizationEvents), ({ params }) =>
    HttpResponse.json<EventList>(params['organizationId'] === 'org-1' ? wireEvents : []),
  ),
  http.post<never, never, VerifyTicketResponse | ApiErrorBody>(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
    const body = VerifyTicketRequest.safeParse(await request.json());
    if (!body.success) return errorResponse(400, { code: 'validation_failed', message: 'Invalid verify request' });
    return HttpResponse.json<VerifyTicketResponse>({ isValid: true, eventName: 'Harbour Sound 2026', holderName: 'Ada Lovelace', ticketType: 'VIP' });
  }),
  // Issue 12: no door list for any day unless a test gives one, so a verify without an answer is
  // SPEC §8's 'Verification Error'; no signing keys; an empty upload answer; no conflicts; the server
  // answers its health probe (also the 'Offline' indicator's, components/offline-indicator.tsx).
  http.get(apiUrl(apiPaths.doorList), () => errorResponse(404, { code: 'not_found', message: 'No door list in this test.' })),
  http.get(apiUrl(apiPaths.signingKeys), ({ params }) => HttpResponse.json<EventSigningKeys>({ eventId: String(params['eventId']), keys: [] })),
  http.post(apiUrl(apiPaths.offlineScans), () => HttpResponse.json<OfflineScanBatchResponse>({ receivedAt: new Date().toISOString(), results: [] })),
  http.get(apiUrl(apiPaths.offlineConflicts), () => HttpResponse.json<OfflineConflictList>({ conflicts: [] })),
  http.get(apiUrl(apiPaths.health), () => HttpResponse.json<HealthResponse>({ status: 'ok' })),
  // Live counts of an event day (issue 10): 12 of 340 checked in, unless a test says otherwise.
  http.get(apiUrl(apiPaths.checkInCounts), ({ params }) =>
    HttpResponse.json<CheckInCounts>({ eventId: String(params['eventId']), day: Number(params['day']), checkedIn: 12, validTickets: 340 }),
  ),
  // Every event has one check-in list, 'All tickets', unless a test says otherwise (docs/decisions/100).
  http.get(apiUrl(apiPaths.checkInLists), ({ params }) =>
    HttpResponse.json<CheckInLists>({
      eventId: String(params['eventId']),
      lists: [{ id: '00000000-0000-4000-8000-000000000001', name: 'All tickets', position: 1, ticketTypes: null, days: null }],
    }),
  ),
];

export const server = setupServer(...defaultHandlers);
