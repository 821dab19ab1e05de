import { apiPaths, VerifyTicketRequest, type VerifyTicketResponse } from '@gatecheck/contract';
import { onlineManager } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { toast } from 'sonner';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { CameraSourceProvider } from '@/features/scanner/camera-source-context.tsx';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { createScriptedScanSource, type ScriptedScanSource } from '@/test/scripted-scan-source.ts';
import { ScannerRoute } from './scanner-route.tsx';

// ---- The camera: a scripted scan source (SEAMS §1). The web camera itself (getUserMedia, the 400 px
// canvas, 2 decodes per second, the 10 s decode timeout) is tested in lib/scan-source and end to end.

// ---- The verify endpoint, recording what the app sent.

function recordVerify(answer: (body: VerifyTicketRequest) => VerifyTicketResponse | Response = () => ({ isValid: true, eventName: 'Harbour Sound 2026', holderName: 'Ada Lovelace', ticketType: 'VIP' })) {
  const bodies: VerifyTicketRequest[] = [];
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      const body = VerifyTicketRequest.parse(await request.json());
      bodies.push(body);
      const result = answer(body);
      return result instanceof Response ? result : HttpResponse.json<VerifyTicketResponse>(result);
    }),
  );
  return bodies;
}

const selection = { organization: testOrganization, event: testEvent, day: testDay };

function renderScanner(camera: ScriptedScanSource = createScriptedScanSource(), options: Parameters<typeof renderWithProviders>[1] = {}) {
  return renderWithProviders(
    <CameraSourceProvider createSource={() => camera}>
      <ScannerRoute />
    </CameraSourceProvider>,
    { route: '/scanner', selection, ...options },
  );
}

/** The sonner toast on screen now whose title is `title`, checking its `description` when given. */
function getToast(title: string, description?: string): HTMLElement {
  const toast = screen.getByText(title, { selector: '[data-sonner-toast] *' }).closest('[data-sonner-toast]');
  if (!(toast instanceof HTMLElement)) throw new Error(`no toast around ${title}`);
  if (description !== undefined) expect(toast).toHaveTextContent(description);
  return toast;
}

/** Waits for the toast titled `title` (see `getToast`). */
async function findToast(title: string, description?: string): Promise<HTMLElement> {
  await screen.findByText(title, { selector: '[data-sonner-toast] *' });
  return getToast(title, description);
}

beforeEach(() => {
  vi.restoreAllMocks();
});

afterEach(() => {
  onlineManager.setOnline(true);
  vi.useRealTimers();
  // sonner keeps toasts in a module-level store and replays active ones to the next Toaster.
  toast.dismiss();
});

// ---- Tests

test('staff without a chosen event are sent to /event-select', async () => {
  renderScanner(undefined, { selection: { organization: testOrganization } });
  expect(await screen.findByRole('heading', { name: 'Test page /event-select' })).toBeInTheDocument();
});

test('staff with an event but no day are sent to /event-select', async () => {
  renderScanner(undefined, { selection: { organization: testOrganization, event: testEvent } });
  expect(await screen.findByRole('heading', { name: 'Test page /event-select' })).toBeInTheDocument();
});

test('the header shows Scanning For, the event title, the day name and number, and the location', () => {
  renderScanner();
  expect(screen.getByText('Scanning For')).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 1, name: 'Harbour Sound 2026' })).toBeInTheDocument();
  expect(screen.getByText('Big Saturday · Day 2')).toBeInTheDocument();
  expect(screen.getByText('Pier 4, Rotterdam')).toBeInTheDocument();
});

test('the header warns in words when the chosen day is not today at the event, and not when it is (issue 15)', () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    // Friday 10 Jul 2026, 20:00 in Amsterdam: the chosen day is Saturday (day 2).
    vi.setSystemTime(new Date('2026-07-10T18:00:00Z'));
    const first = renderScanner();
    expect(within(screen.getByRole('banner')).getByRole('note')).toHaveTextContent(
      'Not today — Day 2 (Big Saturday) is Sat 11 Jul, not today. Today is Day 1, Fri 10 Jul. Tickets will be denied.',
    );
    first.unmount();
    vi.setSystemTime(new Date('2026-07-11T18:00:00Z'));
    renderScanner();
    expect(within(screen.getByRole('banner')).queryByRole('note')).toBeNull();
  } finally {
    vi.useRealTimers();
  }
});

test('Back goes to /day-select', async () => {
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Back' }));
  expect(await screen.findByRole('heading', { name: 'Test page /day-select' })).toBeInTheDocument();
});

test('a swipe from the left edge goes back to /day-select', async () => {
  renderScanner();
  fireEvent.pointerDown(window, { pointerType: 'mouse', clientX: 10, clientY: 300 });
  fireEvent.pointerUp(window, { pointerType: 'mouse', clientX: 160, clientY: 320 });
  expect(await screen.findByRole('heading', { name: 'Test page /day-select' })).toBeInTheDocument();
});

test('Start Scanning reveals the camera preview, camera buttons, manual field and Stop Scanning; Stop Scanning hides them', async () => {
  const { user } = renderScanner();
  expect(screen.queryByRole('button', { name: 'Start Camera' })).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  expect(screen.getByLabelText('Camera preview')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Start Camera' })).toBeEnabled();
  expect(screen.getByRole('button', { name: 'Stop Camera' })).toBeInTheDocument();
  expect(screen.getByLabelText('Or enter ticket ID manually:')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Verify' })).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Stop Scanning' }));
  expect(screen.queryByLabelText('Camera preview')).not.toBeInTheDocument();
  expect(screen.queryByLabelText('Or enter ticket ID manually:')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Start Scanning' })).toBeInTheDocument();
});

test('a QR code from the camera stops the camera, is shown and toasted, and is verified after a 500 ms pause', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  const camera = createScriptedScanSource();
  const code = 'GC-2026-HARBOUR-SOUND-0001-ABCDEFGHIJ';
  const bodies = recordVerify();
  renderScanner(camera);
  const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

  fireEvent.click(screen.getByRole('button', { name: 'Start Scanning' }));
  fireEvent.click(screen.getByRole('button', { name: 'Start Camera' }));
  await advance(0);
  // SPEC §9: the rear camera, into the preview video.
  expect(camera.starts).toEqual([expect.objectContaining({ facing: 'environment', video: screen.getByLabelText('Camera preview') })]);
  expect(screen.getByRole('button', { name: 'Stop Camera' })).toBeEnabled();

  act(() => camera.show(code));
  // SPEC §4: the decode stops the camera, the code is shown under 'QR Code Detected!' cut to 20 (SPEC §9
  // last-scanned banner), and toasted cut to 30.
  expect(camera.isActive).toBe(false);
  expect(camera.stopCount).toBe(1);
  const overlay = screen.getByText('QR Code Detected!', { selector: 'p' });
  expect(overlay.parentElement).toHaveTextContent(`QR Code Detected!${code.slice(0, 20)}...`);
  expect(overlay.parentElement).not.toHaveTextContent(code.slice(0, 21));
  expect(screen.getByRole('button', { name: 'Start Camera' })).toBeDisabled();
  // sonner renders on a timer of its own: let 10 ms pass (of the 500 ms pause).
  await advance(10);
  const toast = getToast('QR Code Detected!', code.slice(0, 30));
  expect(toast).not.toHaveTextContent(code.slice(0, 31));

  // SPEC §4, §9: nothing is sent before the 500 ms pause is over.
  await advance(489);
  expect(bodies).toHaveLength(0);
  expect(screen.getByRole('button', { name: 'Verify' })).toBeDisabled();
  await advance(1);
  for (let step = 0; step < 50 && !screen.queryByRole('group', { name: 'Valid Ticket' }); step++) {
    await advance(10);
    await act(() => new Promise((resolve) => setImmediate(resolve)));
  }
  expect(bodies).toEqual([{ eventId: 'event-1', qrCode: code, day: 2, scanId: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
  const card = screen.getByRole('group', { name: 'Valid Ticket' });
  expect(within(card).getByText('APPROVED')).toBeInTheDocument();
  expect(screen.queryByText('QR Code Detected!', { selector: 'p' })).not.toBeInTheDocument();
  // SPEC §4: the camera stays off until Start Camera is pressed again.
  expect(camera.starts).toHaveLength(1);
  expect(screen.getByRole('button', { name: 'Start Camera' })).toBeEnabled();
});

test('Start Camera after a verdict reads the same ticket again and verifies it again (SPEC §4: no repeat filter)', async () => {
  const camera = createScriptedScanSource();
  const bodies = recordVerify();
  const { user } = renderScanner(camera);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  for (const round of [1, 2]) {
    await user.click(screen.getByRole('button', { name: 'Start Camera' }));
    act(() => camera.show('GC-1'));
    await vi.waitFor(() => expect(bodies).toHaveLength(round));
    expect(await screen.findByRole('button', { name: 'Start Camera' })).toBeEnabled();
  }
  expect(bodies.map((body) => body.qrCode)).toEqual(['GC-1', 'GC-1']);
});

test('Stop Camera releases the camera and stops decoding', async () => {
  const camera = createScriptedScanSource();
  const { user } = renderScanner(camera);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  await screen.findByRole('button', { name: 'Stop Camera' });
  expect(await screen.findByRole('button', { name: 'Start Camera' })).toBeDisabled();
  await user.click(screen.getByRole('button', { name: 'Stop Camera' }));
  expect(camera.stopCount).toBe(1);
  expect(camera.isActive).toBe(false);
  expect(screen.getByRole('button', { name: 'Start Camera' })).toBeEnabled();
  expect(screen.getByRole('button', { name: 'Stop Camera' })).toBeDisabled();
});

test('leaving the screen releases the camera', async () => {
  const camera = createScriptedScanSource();
  const { user, unmount } = renderScanner(camera);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  expect(await screen.findByRole('button', { name: 'Start Camera' })).toBeDisabled();
  expect(camera.isActive).toBe(true);
  unmount();
  expect(camera.isActive).toBe(false);
});

test('Stop Scanning releases the camera', async () => {
  const camera = createScriptedScanSource();
  const { user } = renderScanner(camera);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  expect(await screen.findByRole('button', { name: 'Start Camera' })).toBeDisabled();
  await user.click(screen.getByRole('button', { name: 'Stop Scanning' }));
  expect(camera.stopCount).toBe(1);
  expect(camera.isActive).toBe(false);
});

/** Opens the camera of a source that cannot start, and checks the SPEC §8 camera failure texts. */
async function expectCameraError(camera: ScriptedScanSource): Promise<void> {
  const { user } = renderScanner(camera);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Unable to access camera. Please check permissions.');
  await findToast('Camera Error');
  expect(screen.getByRole('button', { name: 'Start Camera' })).toBeEnabled();
}

test('a camera failure shows the message under the preview and toasts Camera Error', async () => {
  await expectCameraError(createScriptedScanSource({ outcome: 'denied' }));
});

test('a camera that cannot be opened for another reason (none there, no camera API on plain http) shows the camera error', async () => {
  await expectCameraError(createScriptedScanSource({ outcome: 'failed' }));
});

test('Verify is disabled while the manual field is empty or blank', async () => {
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  const verify = screen.getByRole('button', { name: 'Verify' });
  expect(verify).toBeDisabled();
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), '   ');
  expect(verify).toBeDisabled();
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'G');
  expect(verify).toBeEnabled();
});

test('Enter submits the trimmed ticket id, the field is cleared, and an approval shows the full result card', async () => {
  const bodies = recordVerify();
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  const field = screen.getByLabelText('Or enter ticket ID manually:');
  await user.type(field, '  GC-ABCDEFGHIJKLMNOPQRSTUVWXYZ  {Enter}');
  expect(field).toHaveValue('');

  const card = await screen.findByRole('group', { name: 'Valid Ticket' });
  expect(bodies).toEqual([{ eventId: 'event-1', qrCode: 'GC-ABCDEFGHIJKLMNOPQRSTUVWXYZ', day: 2, scanId: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
  expect(within(card).getByText('APPROVED')).toBeInTheDocument();
  expect(within(card).getByText('GC-ABCDEFGHIJKLMNOPQ...')).toBeInTheDocument();
  expect(within(card).getByText('Ada Lovelace')).toBeInTheDocument();
  expect(within(card).getByText('VIP')).toBeInTheDocument();
  expect(within(card).getByText('Harbour Sound 2026')).toBeInTheDocument();
  expect(card.querySelector('time')).toHaveAttribute('dateTime', expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
  // The verdict is carried by an icon as well as by words and colour.
  expect(card.querySelector('svg.lucide-circle-check')).not.toBeNull();
  // Read out once, by the verdict flash's live region (issue 10 item 2); the card is not live.
  expect(card.closest('[aria-live]')).toBeNull();
  expect(screen.getByText('APPROVED', { selector: '[aria-live] *, [aria-live]' })).toHaveAttribute('aria-live', 'assertive');
  await findToast('Valid Ticket', 'Access granted');
});

test('an approval without details shows no detail rows', async () => {
  recordVerify(() => ({ isValid: true }));
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  const card = await screen.findByRole('group', { name: 'Valid Ticket' });
  expect(within(card).queryByText('Holder')).not.toBeInTheDocument();
  expect(within(card).queryByText('Ticket type')).not.toBeInTheDocument();
  expect(within(card).queryByText('Event')).not.toBeInTheDocument();
});

test('a denial shows Invalid Ticket, DENIED, the reason in plain words, and toasts Access denied', async () => {
  recordVerify(() => ({ isValid: false, reason: 'already_checked_in', checkedInAt: '2026-07-11T10:42:00.000Z', checkedInBy: 'Demo Staff' }));
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1001{Enter}');
  const card = await screen.findByRole('group', { name: 'Invalid Ticket' });
  expect(within(card).getByText('DENIED')).toBeInTheDocument();
  expect(within(card).getByText('GC-1001...')).toBeInTheDocument();
  const time = new Date('2026-07-11T10:42:00.000Z').toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  expect(within(card).getByText(`Already checked in at ${time} by Demo Staff`)).toBeInTheDocument();
  expect(card.querySelector('svg.lucide-circle-x')).not.toBeNull();
  expect(screen.queryByRole('group', { name: 'Valid Ticket' })).not.toBeInTheDocument();
  await findToast('Invalid Ticket', 'Access denied');
});

test('Verify is disabled while a check is processing', async () => {
  let release: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), async () => {
      await answered;
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true });
    }),
  );
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-2');
  expect(screen.getByRole('button', { name: 'Verify' })).toBeDisabled();
  release();
  await screen.findByRole('group', { name: 'Valid Ticket' });
  expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled();
});

test('a failed verification toasts Verification Error without the server text, and scanning goes on', async () => {
  server.use(http.post(apiUrl(apiPaths.verifyTicket), () => errorResponse(500, { code: 'internal_error', message: 'Database exploded' })));
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await findToast('Verification Error', 'Could not verify ticket. Please try again.');
  expect(screen.queryByText(/Database exploded/)).not.toBeInTheDocument();
  expect(screen.queryByRole('group', { name: /Ticket$/ })).not.toBeInTheDocument();

  recordVerify();
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-2{Enter}');
  expect(await screen.findByRole('group', { name: 'Valid Ticket' })).toBeInTheDocument();
});

test('a network failure is retried once with the same scanId, then toasts Verification Error', async () => {
  const scanIds: string[] = [];
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      scanIds.push(VerifyTicketRequest.parse(await request.json()).scanId ?? '');
      return HttpResponse.error();
    }),
  );
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await screen.findByText('Verification Error', { selector: '[data-sonner-toast] *' }, { timeout: 4000 });
  expect(scanIds).toHaveLength(2);
  expect(scanIds[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(scanIds[1]).toBe(scanIds[0]);
});

test('each new check gets its own scanId', async () => {
  const bodies = recordVerify();
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await screen.findByText('GC-1...');
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await screen.findAllByText('Valid Ticket', { selector: '[data-sonner-toast] *' });
  await vi.waitFor(() => expect(bodies).toHaveLength(2));
  expect(bodies[0]?.scanId).not.toBe(bodies[1]?.scanId);
});

test('without a selected event id verification is refused (No selected event found.) and shown as Verification Error', async () => {
  const bodies = recordVerify();
  const { user } = renderScanner(undefined, { selection: { organization: testOrganization, event: { ...testEvent, id: '' }, day: testDay } });
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await findToast('Verification Error', 'Could not verify ticket. Please try again.');
  expect(bodies).toHaveLength(0);
});

test('only the latest result is displayed', async () => {
  recordVerify((body) => (body.qrCode === 'GC-1' ? { isValid: true } : { isValid: false, reason: 'not_found' }));
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await screen.findByRole('group', { name: 'Valid Ticket' });
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-404{Enter}');
  const card = await screen.findByRole('group', { name: 'Invalid Ticket' });
  expect(within(card).getByText('Ticket not found')).toBeInTheDocument();
  expect(screen.queryByRole('group', { name: 'Valid Ticket' })).not.toBeInTheDocument();
});

test("a new check's toast takes the place of the last one's: no 'Access granted' stays behind an 'Access denied'", async () => {
  let failNext = false;
  recordVerify((body) => (failNext ? HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 }) : body.qrCode === 'GC-1' ? { isValid: true } : { isValid: false, reason: 'not_found' }));
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await findToast('Valid Ticket', 'Access granted');
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-404{Enter}');
  await findToast('Invalid Ticket', 'Access denied');
  // At once (within a frame or two), not once the earlier toast's 4 s are over: it fades out.
  await waitFor(() => expect(screen.queryByText('Access granted', { selector: '[data-sonner-toast][data-removed="false"] *' })).not.toBeInTheDocument(), { timeout: 1_000 });
  expect(document.querySelectorAll('[data-sonner-toast][data-removed="false"]')).toHaveLength(1);

  failNext = true;
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-2{Enter}');
  await findToast('Verification Error', 'Could not verify ticket. Please try again.');
  await waitFor(() => expect(screen.queryByText('Access denied', { selector: '[data-sonner-toast][data-removed="false"] *' })).not.toBeInTheDocument(), { timeout: 1_000 });
  expect(document.querySelectorAll('[data-sonner-toast][data-removed="false"]')).toHaveLength(1);
});

test('Start Scanning clears the previous result', async () => {
  recordVerify();
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await screen.findByRole('group', { name: 'Valid Ticket' });
  await user.click(screen.getByRole('button', { name: 'Stop Scanning' }));
  expect(screen.getByRole('group', { name: 'Valid Ticket' })).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  expect(screen.queryByRole('group', { name: 'Valid Ticket' })).not.toBeInTheDocument();
});

test('offline, a scanned code fails fast with Verification Error and the scanner stays usable', async () => {
  const camera = createScriptedScanSource();
  const bodies = recordVerify(() => HttpResponse.error());
  const { user } = renderScanner(camera);
  act(() => onlineManager.setOnline(false));
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  act(() => camera.show('GC-OFFLINE-1'));
  await screen.findByText('Verification Error', { selector: '[data-sonner-toast] *' }, { timeout: 4000 });
  getToast('Verification Error', 'Could not verify ticket. Please try again.');
  expect(bodies.length).toBeGreaterThan(0);
  expect(screen.queryByText('QR Code Detected!', { selector: 'p' })).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Start Camera' })).toBeEnabled();
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-2');
  expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled();
});

test('offline, a typed code fails with Verification Error and nothing is sent once the network is back after leaving the screen', async () => {
  const bodies = recordVerify(() => HttpResponse.error());
  const { user, router, queryClient } = renderScanner();
  act(() => onlineManager.setOnline(false));
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await screen.findByText('Verification Error', { selector: '[data-sonner-toast] *' }, { timeout: 4000 });
  getToast('Verification Error', 'Could not verify ticket. Please try again.');
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-2');
  expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled();
  const sentWhileOffline = bodies.length;

  await act(() => router.navigate('/day-select'));
  act(() => onlineManager.setOnline(true));
  // Going online resumes paused mutations; awaiting the same call shows whether any was waiting.
  await act(() => queryClient.resumePausedMutations());
  expect(queryClient.isMutating()).toBe(0);
  expect(queryClient.getMutationCache().getAll().some((mutation) => mutation.state.isPaused)).toBe(false);
  expect(bodies).toHaveLength(sentWhileOffline);
});
