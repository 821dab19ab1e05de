/**
 * The scanner screen's verdict feedback (issue 10 items 2 and 3): the full-screen flash, the tone and
 * the vibration of each verdict, with the real screen, the real verify call (MSW) and the browser's
 * AudioContext and navigator.vibrate stubbed to record what was played.
 */
import { apiPaths, VerifyTicketRequest, type VerifyTicketResponse } from '@gatecheck/contract';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { toast } from 'sonner';
import { afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { QrDecoderProvider } from '@/features/scanner/qr-decoder-context.tsx';
import { VERDICT_FLASH_MS } from '@/features/scanner/verdict-flash-logic.ts';
import { VERDICT_VIBRATION_MS } from '@/lib/native/haptics.ts';
import { VERDICT_TONES } from '@/lib/verdict-sound.ts';
import { installFakeAudioContext, type AudioRecorder } from '@/test/fake-audio-context.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { ScannerRoute } from './scanner-route.tsx';

// The app keeps one AudioContext for its whole life, so one recorder serves the whole file.
let audio: AudioRecorder;
let vibrate: ReturnType<typeof vi.fn>;
beforeAll(() => {
  audio = installFakeAudioContext('suspended');
});
beforeEach(() => {
  audio.notes.length = 0;
  vibrate = vi.fn(() => true);
  Object.defineProperty(navigator, 'vibrate', { configurable: true, value: vibrate });
});
afterEach(() => {
  toast.dismiss();
});

/** Answers GC-1 with an approval, anything else as already checked in by Demo Staff. */
function answerVerify() {
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      const { qrCode } = VerifyTicketRequest.parse(await request.json());
      return HttpResponse.json<VerifyTicketResponse>(
        qrCode === 'GC-1' ? { isValid: true, holderName: 'Ada Lovelace' } : { isValid: false, reason: 'revoked' },
      );
    }),
  );
}

/** Opens /scanner; `isReload`: with the selection already made, as after a reload of the tab. */
function renderScanner({ isReload = false } = {}) {
  return renderWithProviders(
    <QrDecoderProvider createDecoder={async () => ({ decode: async () => null })}>
      <ScannerRoute />
    </QrDecoderProvider>,
    { route: '/scanner', selection: isReload ? {} : { organization: testOrganization, event: testEvent, day: testDay } },
  );
}

const flash = () => document.querySelector<HTMLElement>('[data-verdict]');
const frequencies = () => audio.notes.map((note) => note.frequencyHz);

test('each verdict flashes full-screen, sounds and vibrates, differently for APPROVED and DENIED, and the flash ends by itself', async () => {
  answerVerify();
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  const field = screen.getByLabelText('Or enter ticket ID manually:');

  await user.type(field, 'GC-1{Enter}');
  await vi.waitFor(() => expect(flash()).toHaveAttribute('data-verdict', 'approved'));
  expect(flash()).toHaveTextContent('APPROVED');
  // Tone and vibration are effects of the verdict's render: they follow it within a frame.
  await vi.waitFor(() => expect(frequencies()).toEqual(VERDICT_TONES.approved.map((tone) => tone.frequencyHz)));
  expect(vibrate.mock.calls).toEqual([[[...VERDICT_VIBRATION_MS.approved]]]);
  // The SPEC result card is still there under it.
  expect(screen.getByRole('group', { name: 'Valid Ticket' })).toBeInTheDocument();
  // About a second, then gone.
  await vi.waitFor(() => expect(flash()).toBeNull(), { timeout: VERDICT_FLASH_MS + 2_000 });
  expect(screen.getByRole('group', { name: 'Valid Ticket' })).toBeInTheDocument();

  audio.notes.length = 0;
  await user.type(field, 'GC-2{Enter}');
  await vi.waitFor(() => expect(flash()).toHaveAttribute('data-verdict', 'denied'));
  expect(flash()).toHaveTextContent('DENIED');
  expect(flash()).toHaveTextContent('Ticket revoked');
  expect(screen.getByText('DENIED. Ticket revoked')).toHaveAttribute('aria-live', 'assertive');
  await vi.waitFor(() => expect(frequencies()).toEqual(VERDICT_TONES.denied.map((tone) => tone.frequencyHz)));
  expect(vibrate.mock.calls[1]).toEqual([[...VERDICT_VIBRATION_MS.denied]]);
  expect(within(screen.getByRole('group', { name: 'Invalid Ticket' })).getByText('Ticket revoked')).toBeInTheDocument();
});

test('an attention ticket plays its own tone and vibration, unlike a plain approval, and its flash shows the note (docs/decisions/102)', async () => {
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), () =>
      HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: 'Vera Vip', ticketType: 'VIP', checkInNote: 'Green wristband', requiresAttention: true }),
    ),
  );
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-VIP{Enter}');
  await vi.waitFor(() => expect(flash()).toHaveAttribute('data-attention', 'true'));
  expect(within(flash()!).getByTestId('verdict-flash-note')).toHaveTextContent('ATTENTIONGreen wristband');
  await vi.waitFor(() => expect(frequencies()).toEqual(VERDICT_TONES.attention.map((tone) => tone.frequencyHz)));
  expect(vibrate.mock.calls).toEqual([[[...VERDICT_VIBRATION_MS.attention]]]);
  expect(VERDICT_TONES.attention).not.toEqual(VERDICT_TONES.approved);
  expect(VERDICT_VIBRATION_MS.attention).not.toEqual(VERDICT_VIBRATION_MS.approved);
  expect(VERDICT_VIBRATION_MS.attention).not.toEqual(VERDICT_VIBRATION_MS.denied);
  // The card under the flash keeps the note once the flash is gone.
  expect(within(screen.getByRole('group', { name: 'Valid Ticket' })).getByTestId('result-card-note')).toHaveTextContent('Green wristband');
});

test('a tap on the flash ends it at once', async () => {
  answerVerify();
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await vi.waitFor(() => expect(flash()).not.toBeNull());
  await user.click(flash()!);
  expect(flash()).toBeNull();
});

test('with Sound and Vibration off, a verdict still flashes but plays and vibrates nothing', async () => {
  answerVerify();
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.click(screen.getByRole('switch', { name: 'Sound' }));
  await user.click(screen.getByRole('switch', { name: 'Vibration' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-2{Enter}');
  await vi.waitFor(() => expect(flash()).toHaveAttribute('data-verdict', 'denied'));
  expect(audio.notes).toEqual([]);
  expect(vibrate).not.toHaveBeenCalled();
});

test('the verdict kept across a reload is shown on its card but not flashed, sounded or vibrated again', async () => {
  answerVerify();
  const first = renderScanner();
  await first.user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await first.user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');
  await vi.waitFor(() => expect(flash()).not.toBeNull());
  first.unmount();
  audio.notes.length = 0;
  vibrate.mockClear();

  renderScanner({ isReload: true });
  expect(await screen.findByRole('group', { name: 'Valid Ticket' })).toBeInTheDocument();
  expect(flash()).toBeNull();
  expect(audio.notes).toEqual([]);
  expect(vibrate).not.toHaveBeenCalled();
});
