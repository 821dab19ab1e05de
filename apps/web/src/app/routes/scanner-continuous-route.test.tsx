/**
 * Issue 10 items 1, 4, 6 and 7 on the scanner screen: the 'Continuous scanning' switch, continuous
 * camera scanning (repeats within 3 s ignored, 1.5 s rest after each verdict, no taps), 'Torch' and
 * 'Switch camera', and keyboard-wedge scanners. The camera is a scripted scan source (SEAMS §1); key
 * presses are real DOM events.
 */
import { apiPaths, VerifyTicketRequest, type VerifyTicketResponse } from '@gatecheck/contract';
import { act, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, expect, test, vi } from 'vitest';
import { CameraSourceProvider } from '@/features/scanner/camera-source-context.tsx';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { createScriptedScanSource, type ScriptedScanSource } from '@/test/scripted-scan-source.ts';
import { ScannerRoute } from './scanner-route.tsx';

const selection = { organization: testOrganization, event: testEvent, day: testDay };

/** Answers every verify with an approval naming the code; returns the codes sent, in order. */
function recordVerify(): string[] {
  const codes: string[] = [];
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      const { qrCode } = VerifyTicketRequest.parse(await request.json());
      codes.push(qrCode);
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: `Holder of ${qrCode}` });
    }),
  );
  return codes;
}

function renderScanner(camera: ScriptedScanSource = createScriptedScanSource()) {
  return renderWithProviders(
    <CameraSourceProvider createSource={() => camera}>
      <ScannerRoute />
    </CameraSourceProvider>,
    { route: '/scanner', selection },
  );
}

/** A wedge scanner's time between two keys, in ms. */
const WEDGE_KEY_GAP_MS = 5;

/**
 * Real keydown events on what has focus (the body when nothing has), as a wedge scanner types: its
 * keys 5 ms apart on `performance.now()`, whatever time the screen takes to render between two keys
 * (on the loaded shared machine, once over the 50 ms that split a burst, losing its first key).
 */
function wedgeScan(code: string): void {
  const target = document.activeElement ?? document.body;
  const start = performance.now();
  let keysTyped = 0;
  const clock = vi.spyOn(performance, 'now').mockImplementation(() => start + keysTyped * WEDGE_KEY_GAP_MS);
  try {
    for (const key of [...code, 'Enter']) {
      fireEvent.keyDown(target, { key });
      keysTyped += 1;
    }
  } finally {
    clock.mockRestore();
  }
}

/** Fake clocks (timers, Date, performance.now); the network still runs on real ticks. */
function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
  return async (ms: number) => {
    await act(() => vi.advanceTimersByTimeAsync(ms));
    // Let MSW answer and React render.
    for (let step = 0; step < 5; step++) await act(() => new Promise((resolve) => setImmediate(resolve)));
  };
}

afterEach(() => {
  vi.useRealTimers();
});

test("the 'Continuous scanning' switch is off by default and remembered on this device", async () => {
  const { user, unmount } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  const toggle = screen.getByRole('switch', { name: 'Continuous scanning' });
  expect(toggle).toHaveAttribute('aria-checked', 'false');
  await user.click(toggle);
  expect(toggle).toHaveAttribute('aria-checked', 'true');
  expect(JSON.parse(window.localStorage.getItem('deviceSettings') ?? 'null')).toMatchObject({ continuousScanning: true });
  unmount();

  const again = renderScanner();
  await again.user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  expect(await screen.findByRole('switch', { name: 'Continuous scanning', checked: true })).toBeInTheDocument();
});

test('continuous scanning: the camera keeps running, a held ticket is verified once, and the next tickets follow with no tap', async () => {
  window.localStorage.setItem('deviceSettings', JSON.stringify({ continuousScanning: true }));
  const camera = createScriptedScanSource();
  const sent = recordVerify();
  renderScanner(camera);
  const advance = useFakeClock();
  fireEvent.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await advance(0);
  expect(screen.getByRole('switch', { name: 'Continuous scanning' })).toHaveAttribute('aria-checked', 'true');
  fireEvent.click(screen.getByRole('button', { name: 'Start Camera' }));
  await advance(0);

  // Ticket 1 held in view: reported every 500 ms, for 5 s.
  act(() => camera.show('GC-0001'));
  // SPEC §4 as ever: the code is shown and toasted, and sent after the 500 ms pause; the camera runs on.
  expect(screen.getByText('QR Code Detected!', { selector: 'p' })).toBeInTheDocument();
  expect(camera.isActive).toBe(true);
  await advance(499);
  expect(sent).toEqual([]);
  await advance(1);
  await advance(100);
  expect(screen.getByRole('group', { name: 'Valid Ticket' })).toHaveTextContent('Holder of GC-0001');
  expect(screen.getByText('QR Code Detected!', { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
  for (let frame = 0; frame < 10; frame++) {
    await advance(500);
    act(() => camera.show('GC-0001'));
  }
  expect(sent).toEqual(['GC-0001']);

  // Tickets 2 to 10, each shown for a second after the one before is taken away: no tap at all.
  const codes = Array.from({ length: 9 }, (_, index) => `GC-${String(index + 2).padStart(4, '0')}`);
  for (const code of codes) {
    await advance(3_000);
    act(() => camera.show(code));
    await advance(500);
    act(() => camera.show(code));
    await advance(500);
    expect(screen.getByRole('group', { name: 'Valid Ticket' })).toHaveTextContent(`Holder of ${code}`);
  }
  expect(sent).toEqual(['GC-0001', ...codes]);
  expect(camera.starts).toHaveLength(1);
  expect(camera.stopCount).toBe(0);
});

test('continuous scanning rests 1.5 s after a verdict: a new ticket shown sooner is taken when the rest is over', async () => {
  window.localStorage.setItem('deviceSettings', JSON.stringify({ continuousScanning: true }));
  const camera = createScriptedScanSource();
  const sent = recordVerify();
  renderScanner(camera);
  const advance = useFakeClock();
  fireEvent.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await advance(0);
  fireEvent.click(screen.getByRole('button', { name: 'Start Camera' }));
  await advance(0);
  act(() => camera.show('GC-A'));
  await advance(600);
  expect(screen.getByRole('group', { name: 'Valid Ticket' })).toHaveTextContent('Holder of GC-A');
  // The verdict landed at about 0.6 s; the next ticket is already held up, frame after frame, until
  // 1.5 s after it: not taken.
  for (let frame = 0; frame < 3; frame++) {
    act(() => camera.show('GC-B'));
    await advance(500);
  }
  expect(sent).toEqual(['GC-A']);
  expect(screen.getByRole('group', { name: 'Valid Ticket' })).toHaveTextContent('Holder of GC-A');
  // The next frame after the rest is taken, with no tap.
  await advance(100);
  act(() => camera.show('GC-B'));
  await advance(600);
  expect(sent).toEqual(['GC-A', 'GC-B']);
  expect(screen.getByRole('group', { name: 'Valid Ticket' })).toHaveTextContent('Holder of GC-B');
});

test('with continuous scanning off the first code stops the camera (SPEC §4), also after switching it off', async () => {
  window.localStorage.setItem('deviceSettings', JSON.stringify({ continuousScanning: true }));
  const camera = createScriptedScanSource();
  recordVerify();
  const { user } = renderScanner(camera);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  await user.click(await screen.findByRole('switch', { name: 'Continuous scanning', checked: true }));
  expect(camera.isActive).toBe(true);
  act(() => camera.show('GC-1'));
  expect(camera.isActive).toBe(false);
  expect(await screen.findByRole('group', { name: 'Valid Ticket' })).toBeInTheDocument();
});

test('a keyboard-wedge burst with nothing focused is verified like a scan; the same code within 3 s is ignored', async () => {
  const sent = recordVerify();
  renderScanner();
  fireEvent.click(screen.getByRole('button', { name: 'Start Scanning' }));
  expect(document.activeElement).toBe(document.body);
  wedgeScan('GC-WEDGE-1');
  expect(screen.getByText('QR Code Detected!', { selector: 'p' })).toBeInTheDocument();
  expect(await screen.findByRole('group', { name: 'Valid Ticket' })).toHaveTextContent('Holder of GC-WEDGE-1');
  expect(sent).toEqual(['GC-WEDGE-1']);
  wedgeScan('GC-WEDGE-1');
  wedgeScan('GC-WEDGE-2');
  expect(await screen.findByText('Holder of GC-WEDGE-2')).toBeInTheDocument();
  expect(sent).toEqual(['GC-WEDGE-1', 'GC-WEDGE-2']);
});

test('a keyboard-wedge burst works on the scanner screen before Start Scanning too', async () => {
  const sent = recordVerify();
  renderScanner();
  wedgeScan('GC-IDLE-01');
  expect(await screen.findByRole('group', { name: 'Valid Ticket' })).toBeInTheDocument();
  expect(sent).toEqual(['GC-IDLE-01']);
});

test('a scanner typing into the focused manual field is handled by the field alone: one verify (SPEC §5)', async () => {
  const sent = recordVerify();
  const { user } = renderScanner();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  const field = screen.getByLabelText('Or enter ticket ID manually:');
  await user.type(field, 'GC-TYPED-1{Enter}');
  expect(await screen.findByRole('group', { name: 'Valid Ticket' })).toBeInTheDocument();
  expect(sent).toEqual(['GC-TYPED-1']);
  expect(field).toHaveValue('');
});

test("'Torch' shows only while a camera with a torch runs, and switches it on and off", async () => {
  const camera = createScriptedScanSource({ torch: true });
  const { user } = renderScanner(camera);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  expect(screen.queryByRole('button', { name: 'Torch' })).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  const torch = await screen.findByRole('button', { name: 'Torch' });
  expect(torch).toHaveAttribute('aria-pressed', 'false');
  await user.click(torch);
  expect(torch).toHaveAttribute('aria-pressed', 'true');
  await user.click(torch);
  expect(camera.torchCalls).toEqual([true, false]);
  await user.click(screen.getByRole('button', { name: 'Stop Camera' }));
  expect(screen.queryByRole('button', { name: 'Torch' })).not.toBeInTheDocument();
});

test("a camera without a torch gets no 'Torch'", async () => {
  const { user } = renderScanner(createScriptedScanSource({ torch: false }));
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  await screen.findByRole('button', { name: 'Stop Camera' });
  expect(await screen.findByRole('button', { name: 'Start Camera' })).toBeDisabled();
  expect(screen.queryByRole('button', { name: 'Torch' })).not.toBeInTheDocument();
});

for (const cameras of [1, 2]) {
  test(`with ${cameras} camera(s) listed, 'Switch camera' is ${cameras > 1 ? 'offered and turns to the front camera and back' : 'not offered'}`, async () => {
    const devices = Array.from({ length: cameras }, () => ({ kind: 'videoinput' }));
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { enumerateDevices: async () => devices } });
    const camera = createScriptedScanSource();
    const { user } = renderScanner(camera);
    await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
    await user.click(screen.getByRole('button', { name: 'Start Camera' }));
    expect(await screen.findByRole('button', { name: 'Start Camera' })).toBeDisabled();
    if (cameras === 1) {
      await act(async () => undefined);
      expect(screen.queryByRole('button', { name: 'Switch camera' })).not.toBeInTheDocument();
      return;
    }
    await user.click(await screen.findByRole('button', { name: 'Switch camera' }));
    await user.click(screen.getByRole('button', { name: 'Switch camera' }));
    // SPEC §9: rear first; then front, then rear again.
    expect(camera.starts.map((start) => start.facing)).toEqual(['environment', 'user', 'environment']);
  });
}
