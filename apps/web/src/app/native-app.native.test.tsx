/**
 * The native app's device paths (issue 9 items 2–4) on Capacitor's real Android bridge, the Java side
 * played by the stand-in: ML Kit scanning on /scanner (one code, one verification; never
 * getUserMedia), the permission refusal with 'Open settings', keep-awake while the camera runs,
 * the transparent WebView, Android's back button and the status bar.
 */
import { standIn } from '@/test/android-bridge-install.ts';
import { apiPaths, type VerifyTicketRequest } from '@gatecheck/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { installBackButton } from '@/lib/native/back-button.ts';
import { setUpStatusBar } from '@/lib/native/status-bar.ts';
import { TRANSPARENT_WEBVIEW_CLASS } from '@/lib/native/use-transparent-webview.ts';
import { DEFAULT_STAND_IN_OPTIONS, flushBridge } from '@/test/android-bridge.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const selection = { organization: testOrganization, event: testEvent, day: testDay };
const called = (pluginId: string, methodName?: string) =>
  standIn().calls.filter((call) => call.pluginId === pluginId && (methodName === undefined || call.methodName === methodName));
const scan = (code: string) =>
  act(() => {
    standIn().emit('BarcodeScanner', 'barcodesScanned', { barcodes: [{ rawValue: code, displayValue: code, format: 'QR_CODE', valueType: 'TEXT' }] });
  });

const getUserMedia = vi.fn();
let removeBackButton: () => Promise<void> = async () => undefined;

beforeEach(async () => {
  standIn().calls.length = 0;
  Object.assign(standIn().options, DEFAULT_STAND_IN_OPTIONS);
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
  getUserMedia.mockClear();
  removeBackButton = await installBackButton();
});

afterEach(async () => {
  await removeBackButton();
});

test('a native scan goes through ML Kit: one code in view for many frames gives one verification and its verdict', async () => {
  const bodies: VerifyTicketRequest[] = [];
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      bodies.push((await request.json()) as VerifyTicketRequest);
      return HttpResponse.json({ isValid: true, eventName: 'Harbour Sound 2026', holderName: 'Ada Lovelace', ticketType: 'VIP' });
    }),
  );
  const { user } = renderApp({ route: '/scanner', selection });
  await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Stop Camera' })).toBeEnabled());
  await waitFor(() => expect(called('KeepAwake', 'keepAwake')).toHaveLength(1));
  expect(called('BarcodeScanner', 'startScan')[0]?.options).toEqual({ formats: ['QR_CODE'], lensFacing: 'BACK' });
  expect(document.documentElement).toHaveClass(TRANSPARENT_WEBVIEW_CLASS);

  // The plugin reports the code on every frame it stays in view.
  await scan('GC-NATIVE-1');
  await scan('GC-NATIVE-1');
  await scan('GC-NATIVE-1');
  expect(await screen.findByText('QR Code Detected!', { selector: 'p' })).toBeInTheDocument();
  const card = await screen.findByRole('group', { name: 'Valid Ticket' }, { timeout: 5000 });
  expect(within(card).getByText('APPROVED')).toBeInTheDocument();
  expect(bodies).toEqual([{ eventId: testEvent.id, qrCode: 'GC-NATIVE-1', day: testDay.day, scanId: expect.any(String) }]);
  // The camera stopped on the first code (SPEC §4) and the page is opaque again.
  expect(called('BarcodeScanner', 'stopScan').length).toBeGreaterThanOrEqual(1);
  expect(document.documentElement).not.toHaveClass(TRANSPARENT_WEBVIEW_CLASS);
  expect(getUserMedia).not.toHaveBeenCalled();
  // The verdict is felt: the device's success haptic, through the bridge.
  await waitFor(() => expect(called('Haptics', 'notification').map((call) => call.options)).toEqual([{ type: 'SUCCESS' }]));
  // The screen stayed on while the camera ran; the decode stopped it, so the phone may sleep again.
  await waitFor(() => expect(called('KeepAwake', 'allowSleep')).toHaveLength(1));
});

test('a refused camera permission shows the SPEC §8 message, the Camera Error toast and Open settings', async () => {
  standIn().options.camera = 'prompt';
  standIn().options.cameraOnRequest = 'denied';
  const { user } = renderApp({ route: '/scanner', selection });
  await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  expect(await screen.findByText('Unable to access camera. Please check permissions.')).toBeInTheDocument();
  expect(await screen.findByText('Camera Error', { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
  expect(called('BarcodeScanner', 'startScan')).toHaveLength(0);
  expect(document.documentElement).not.toHaveClass(TRANSPARENT_WEBVIEW_CLASS);
  await user.click(screen.getByRole('button', { name: 'Open settings' }));
  await waitFor(() => expect(called('BarcodeScanner', 'openSettings')).toHaveLength(1));
  expect(getUserMedia).not.toHaveBeenCalled();
});

test("Android's back button does the screen's back: /scanner → /day-select → /event-select", async () => {
  const { router } = renderApp({ route: '/scanner', selection });
  await screen.findByRole('button', { name: 'Start Scanning' });
  await flushBridge();
  expect(standIn().listenerCount('App', 'backButton')).toBe(1);
  act(() => void standIn().emit('App', 'backButton', { canGoBack: true }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/day-select'));
  act(() => void standIn().emit('App', 'backButton', { canGoBack: true }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/event-select'));
  expect(called('App', 'exitApp')).toHaveLength(0);
});

test("Android's back button on /login leaves the app", async () => {
  renderApp({ route: '/login', user: null });
  await screen.findByLabelText('Server');
  await flushBridge();
  act(() => void standIn().emit('App', 'backButton', { canGoBack: true }));
  await waitFor(() => expect(called('App', 'exitApp')).toHaveLength(1));
});

test('the status bar gets light text on a solid dark bar', async () => {
  await setUpStatusBar();
  expect(called('StatusBar').map((call) => [call.methodName, call.options])).toEqual([
    ['setStyle', { style: 'DARK' }],
    ['setOverlaysWebView', { overlay: false }],
    ['setBackgroundColor', { color: '#0f172a' }],
  ]);
});
