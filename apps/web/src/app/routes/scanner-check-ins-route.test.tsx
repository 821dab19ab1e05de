/**
 * The scanner's check-in state (issue 10 items 4 and 5, SEAMS §6): 'Checked in N / M' in the header
 * and the collapsed 'Recent scans' list, through the real screen, the real query client and the
 * verify mutation, with the API answered by MSW.
 */
import { apiPaths, type CheckInCounts, VerifyTicketRequest, type VerifyTicketResponse } from '@gatecheck/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, expect, test, vi } from 'vitest';
import { logout } from '@/features/auth/api.ts';
import { CHECK_IN_COUNTS_REFRESH_MS } from '@/lib/check-ins/check-in-queries.ts';
import { QrDecoderProvider } from '@/features/scanner/qr-decoder-context.tsx';
import { keepRecentScans, readRecentScans, RECENT_SCANS_MAX } from '@/features/scanner/recent-scans.ts';
import type { ScanResult } from '@/features/scanner/scanner-logic.ts';
import type { QrDecoder } from '@/lib/qr/qr-decoder.ts';
import type { EventDay } from '@/lib/entities.ts';
import { selectDay, selectEvent, selectOrganization } from '@/lib/selection.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { ScannerRoute } from './scanner-route.tsx';

afterEach(() => {
  vi.useRealTimers();
});

const noDecoder = async (): Promise<QrDecoder> => ({ decode: async () => null });

/**
 * The scanner screen for `day` of the test event. `day: 'kept'` keeps the selection of the previous
 * render (a reload: choosing the event day again would be a change that forgets the tab memory).
 */
function renderScanner(day: EventDay | 'kept' = testDay) {
  return renderWithProviders(
    <QrDecoderProvider createDecoder={noDecoder}>
      <ScannerRoute />
    </QrDecoderProvider>,
    { route: '/scanner', selection: day === 'kept' ? {} : { organization: testOrganization, event: testEvent, day } },
  );
}

/** Selects the test event's `testDay` as the day-select screen would. */
async function selectTestDay() {
  await selectOrganization(testOrganization);
  await selectEvent(testEvent);
  await selectDay(testDay);
}

/**
 * A door: the counts endpoint answers `checkedIn` of 340 (or what `answer` says), and verify approves
 * 'GC-OK…' codes (adding one check-in) and denies the rest as not found. Records every counts request.
 */
function door(options: { checkedIn?: number; answer?: () => Response | undefined } = {}) {
  const state = { checkedIn: options.checkedIn ?? 12, countRequests: [] as Array<{ eventId: string; day: string }> };
  server.use(
    http.get(apiUrl(apiPaths.checkInCounts), ({ params }) => {
      state.countRequests.push({ eventId: String(params['eventId']), day: String(params['day']) });
      const override = options.answer?.();
      if (override) return override;
      return HttpResponse.json<CheckInCounts>({ eventId: String(params['eventId']), day: Number(params['day']), checkedIn: state.checkedIn, validTickets: 340 });
    }),
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      const body = VerifyTicketRequest.parse(await request.json());
      if (body.qrCode.startsWith('GC-OK')) {
        state.checkedIn += 1;
        return HttpResponse.json<VerifyTicketResponse>({ isValid: true, eventName: testEvent.name, holderName: `Holder of ${body.qrCode}`, ticketType: 'VIP' });
      }
      if (body.qrCode === 'GC-TWICE') {
        return HttpResponse.json<VerifyTicketResponse>({ isValid: false, reason: 'already_checked_in', checkedInAt: new Date(2026, 6, 11, 20, 15).toISOString(), checkedInBy: 'Sam Steward' });
      }
      return HttpResponse.json<VerifyTicketResponse>({ isValid: false, reason: 'not_found', message: 'No ticket with this code exists.' });
    }),
  );
  return state;
}

async function typeCode(user: ReturnType<typeof renderScanner>['user'], code: string, verdict: 'Valid Ticket' | 'Invalid Ticket') {
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), `${code}{Enter}`);
  await screen.findByText(verdict, { selector: '[data-sonner-toast] *' });
  await waitFor(() => expect(screen.getByLabelText('Or enter ticket ID manually:')).toHaveValue(''));
}

/** Opens 'Recent scans' and returns its rows' texts, top to bottom. */
async function openRecentScans(user: ReturnType<typeof renderScanner>['user']): Promise<string[]> {
  await user.click(await screen.findByText('Recent scans'));
  const list = screen.queryByRole('list', { name: 'Recent scans' });
  return list ? within(list).getAllByRole('listitem').map((item) => item.textContent ?? '') : [];
}

// ---- 'Checked in N / M'

test("the header shows 'Checked in N / M' for the selected event day", async () => {
  const state = door();
  renderScanner();
  expect(await screen.findByText('Checked in 12 / 340')).toBeInTheDocument();
  expect(state.countRequests[0]).toEqual({ eventId: testEvent.id, day: String(testDay.day) });
});

test('while the first count is on its way the header shows no number, never 0 / 0', async () => {
  let release: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  server.use(
    http.get(apiUrl(apiPaths.checkInCounts), async () => {
      await answered;
      return HttpResponse.json<CheckInCounts>({ eventId: testEvent.id, day: testDay.day, checkedIn: 7, validTickets: 9 });
    }),
  );
  renderScanner();
  expect(await screen.findByRole('heading', { name: testEvent.name })).toBeInTheDocument();
  expect(screen.queryByText(/Checked in/)).not.toBeInTheDocument();
  release();
  expect(await screen.findByText('Checked in 7 / 9')).toBeInTheDocument();
});

test('a first count that fails shows nothing rather than a made-up number', async () => {
  const state = door({ answer: () => errorResponse(500, { code: 'internal_error', message: 'Internal server error' }) });
  renderScanner();
  await waitFor(() => expect(state.countRequests).toHaveLength(1));
  await screen.findByRole('button', { name: 'Start Scanning' });
  expect(screen.queryByText(/Checked in/)).not.toBeInTheDocument();
});

test('an approval refreshes the count: it rises by one', async () => {
  const state = door();
  const { user } = renderScanner();
  await screen.findByText('Checked in 12 / 340');
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GC-OK-1', 'Valid Ticket');
  expect(await screen.findByText('Checked in 13 / 340')).toBeInTheDocument();
  expect(state.countRequests).toHaveLength(2);
});

test('when a refresh fails the header keeps the last known count', async () => {
  let isDown = false;
  const state = door({ answer: () => (isDown ? errorResponse(500, { code: 'internal_error', message: 'Internal server error' }) : undefined) });
  const { user } = renderScanner();
  await screen.findByText('Checked in 12 / 340');
  isDown = true;
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GC-OK-2', 'Valid Ticket');
  await waitFor(() => expect(state.countRequests).toHaveLength(2));
  // Let the failed answer land and render.
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  expect(screen.getByText('Checked in 12 / 340')).toBeInTheDocument();
  expect(screen.queryByText(/0 \/ 0/)).not.toBeInTheDocument();
});

test(`the count is fetched again every ${CHECK_IN_COUNTS_REFRESH_MS / 1000} s while the scanner is open, and not after it closes`, async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const state = door();
  const { unmount } = renderScanner();
  await screen.findByText('Checked in 12 / 340');
  expect(CHECK_IN_COUNTS_REFRESH_MS).toBeLessThanOrEqual(30_000);
  state.checkedIn = 20;
  await act(() => vi.advanceTimersByTimeAsync(CHECK_IN_COUNTS_REFRESH_MS - 1_000));
  expect(state.countRequests).toHaveLength(1);
  await act(() => vi.advanceTimersByTimeAsync(1_500));
  expect(await screen.findByText('Checked in 20 / 340')).toBeInTheDocument();
  expect(state.countRequests).toHaveLength(2);
  unmount();
  await vi.advanceTimersByTimeAsync(3 * CHECK_IN_COUNTS_REFRESH_MS);
  expect(state.countRequests).toHaveLength(2);
});

// ---- 'Recent scans'

test("'Recent scans' is collapsed at first and lists the day's verdicts newest first: time, verdict, cut code, holder or reason", async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 6, 11, 21, 7) });
  door();
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GC-OK-ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'Valid Ticket');
  await typeCode(user, 'GC-404', 'Invalid Ticket');
  await typeCode(user, 'GC-TWICE', 'Invalid Ticket');
  expect(screen.getByText('Recent scans').closest('details')).not.toHaveAttribute('open');
  expect(screen.queryByRole('list', { name: 'Recent scans' })).not.toBeInTheDocument();
  expect(screen.getByText('(3)')).toBeInTheDocument();

  const rows = await openRecentScans(user);
  expect(rows).toEqual([
    `21:07DENIEDGC-TWICE...Already checked in at ${new Date(2026, 6, 11, 20, 15).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })} by Sam Steward`,
    '21:07DENIEDGC-404...Ticket not found',
    '21:07APPROVEDGC-OK-ABCDEFGHIJKLMN...Holder of GC-OK-ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  ]);
}, 15_000);

test('the list keeps the newest 50 verdicts', async () => {
  const older: ScanResult[] = Array.from({ length: RECENT_SCANS_MAX }, (_, index) => ({
    id: `old-${index}`,
    ticketId: `GC-OLD-${index}`,
    timestamp: new Date(2026, 6, 11, 18, 0).toISOString(),
    isValid: true,
    details: { holderName: `Guest ${index}` },
  }));
  await selectTestDay();
  keepRecentScans({ eventId: testEvent.id, day: testDay.day }, older);
  door();
  const { user } = renderScanner('kept');
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GC-OK-NEWEST', 'Valid Ticket');
  const rows = await openRecentScans(user);
  expect(rows).toHaveLength(50);
  expect(rows[0]).toContain('GC-OK-NEWEST...');
  expect(rows[1]).toContain('GC-OLD-0...');
  expect(rows.at(-1)).toContain('GC-OLD-48...');
  expect(rows.join('\n')).not.toContain('GC-OLD-49');
}, 15_000);

test('the list survives a reload for the same day; another day starts empty', async () => {
  door();
  const first = renderScanner();
  await first.user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(first.user, 'GC-OK-KEPT', 'Valid Ticket');
  first.unmount();

  // A reload: a fresh query client and screen, the same selection and tab memory.
  const reloaded = renderScanner('kept');
  expect(await openRecentScans(reloaded.user)).toEqual([expect.stringContaining('GC-OK-KEPT...')]);
  reloaded.unmount();

  const otherDay = renderScanner({ day: 3, name: 'Closing Sunday', date: '2026-07-12' });
  expect(await openRecentScans(otherDay.user)).toEqual([]);
  expect(screen.getByText('No scans on this device for this day since the app was opened.')).toBeInTheDocument();
}, 15_000);

test('logging out forgets the recent scans', async () => {
  door();
  const { user, unmount } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GC-OK-GONE', 'Valid Ticket');
  expect(readRecentScans({ eventId: testEvent.id, day: testDay.day })).toHaveLength(1);
  unmount();
  await logout();
  expect(readRecentScans({ eventId: testEvent.id, day: testDay.day })).toEqual([]);
  expect(sessionStorage.getItem('gatecheck.recentScans')).toBeNull();
});
