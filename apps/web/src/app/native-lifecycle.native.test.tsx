/**
 * The OS around the native scanner (decision 091), on Capacitor's real Android bridge with the Java
 * side played by the stand-in: the app going to the background and back, a camera failing while it
 * runs (ML Kit's `scanError`), Android's back button with a sheet open, and the screen kept awake
 * only while the camera runs.
 */
import { standIn } from '@/test/android-bridge-install.ts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { Sheet } from '@/components/ui/sheet.tsx';
import { installBackButton } from '@/lib/native/back-button.ts';
import { TRANSPARENT_WEBVIEW_CLASS } from '@/lib/native/use-transparent-webview.ts';
import { DEFAULT_STAND_IN_OPTIONS, flushBridge } from '@/test/android-bridge.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { renderApp, renderWithProviders } from '@/test/render.tsx';

const selection = { organization: testOrganization, event: testEvent, day: testDay };
const called = (pluginId: string, methodName: string) => standIn().calls.filter((call) => call.pluginId === pluginId && call.methodName === methodName);
const emit = (pluginId: string, eventName: string, data: unknown) => act(() => void standIn().emit(pluginId, eventName, data));

let removeBackButton: () => Promise<void> = async () => undefined;

beforeEach(async () => {
  standIn().calls.length = 0;
  Object.assign(standIn().options, DEFAULT_STAND_IN_OPTIONS);
  removeBackButton = await installBackButton();
});

afterEach(async () => {
  await removeBackButton();
});

/** /scanner with the camera running through ML Kit. */
async function openRunningCamera() {
  const rendered = renderApp({ route: '/scanner', selection });
  await rendered.user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
  await rendered.user.click(screen.getByRole('button', { name: 'Start Camera' }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Stop Camera' })).toBeEnabled());
  expect(called('BarcodeScanner', 'startScan')).toHaveLength(1);
  return rendered;
}

test('the camera is released when the app goes to the background and taken again when it comes back', async () => {
  await openRunningCamera();
  await flushBridge();
  expect(standIn().listenerCount('App', 'appStateChange')).toBe(1);

  emit('App', 'appStateChange', { isActive: false });
  await waitFor(() => expect(called('BarcodeScanner', 'stopScan')).toHaveLength(1));
  await waitFor(() => expect(standIn().listenerCount('BarcodeScanner', 'barcodesScanned')).toBe(0));
  expect(screen.getByRole('button', { name: 'Start Camera' })).toBeEnabled();
  expect(document.documentElement).not.toHaveClass(TRANSPARENT_WEBVIEW_CLASS);
  await waitFor(() => expect(called('KeepAwake', 'allowSleep')).toHaveLength(1));

  emit('App', 'appStateChange', { isActive: true });
  await waitFor(() => expect(called('BarcodeScanner', 'startScan')).toHaveLength(2));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Stop Camera' })).toBeEnabled());
  expect(document.documentElement).toHaveClass(TRANSPARENT_WEBVIEW_CLASS);
  expect(called('KeepAwake', 'keepAwake')).toHaveLength(2);
  // The camera taken again reads codes again.
  expect(standIn().listenerCount('BarcodeScanner', 'barcodesScanned')).toBe(1);
});

test('a camera stopped by staff before the app went to the background stays stopped when it comes back', async () => {
  const { user } = await openRunningCamera();
  await user.click(screen.getByRole('button', { name: 'Stop Camera' }));
  await waitFor(() => expect(called('BarcodeScanner', 'stopScan')).toHaveLength(1));
  await flushBridge();

  emit('App', 'appStateChange', { isActive: false });
  emit('App', 'appStateChange', { isActive: true });
  await flushBridge();
  expect(called('BarcodeScanner', 'startScan')).toHaveLength(1);
  expect(screen.getByRole('button', { name: 'Start Camera' })).toBeEnabled();
});

test("a camera that fails while it runs (ML Kit's scanError) stops and shows SPEC §8's camera failure", async () => {
  await openRunningCamera();
  await flushBridge();
  expect(standIn().listenerCount('BarcodeScanner', 'scanError')).toBe(1);

  emit('BarcodeScanner', 'scanError', { message: 'Camera in use by another app.' });
  expect(await screen.findByText('Unable to access camera. Please check permissions.')).toBeInTheDocument();
  expect(await screen.findByText('Camera Error', { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
  await waitFor(() => expect(called('BarcodeScanner', 'stopScan')).toHaveLength(1));
  await waitFor(() => expect(standIn().listenerCount('BarcodeScanner', 'barcodesScanned')).toBe(0));
  expect(standIn().listenerCount('BarcodeScanner', 'scanError')).toBe(0);
  expect(document.documentElement).not.toHaveClass(TRANSPARENT_WEBVIEW_CLASS);
  await waitFor(() => expect(called('KeepAwake', 'allowSleep')).toHaveLength(1));
  // Staff can try again.
  expect(screen.getByRole('button', { name: 'Start Camera' })).toBeEnabled();
});

test("Android's back button closes an open sheet first; the screen stays", async () => {
  const { user, router } = renderApp({ route: '/scanner', selection: { ...selection, organization: { ...testOrganization, role: 'supervisor' } } });
  await user.click(await screen.findByRole('button', { name: 'Find attendee' }));
  const sheet = await screen.findByRole('dialog', { name: 'Find attendee' });
  expect(within(sheet).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  await flushBridge();

  emit('App', 'backButton', { canGoBack: true });
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Find attendee' })).not.toBeInTheDocument());
  expect(router.state.location.pathname).toBe('/scanner');

  // With nothing open, back is the screen's back again.
  emit('App', 'backButton', { canGoBack: true });
  await waitFor(() => expect(router.state.location.pathname).toBe('/day-select'));
});

/** A sheet with a confirmation asked from inside it, as a screen opens them. */
function SheetWithQuestion() {
  const [isSheetOpen, setSheetOpen] = useState(true);
  const [isAsking, setAsking] = useState(false);
  return (
    <Sheet open={isSheetOpen} onOpenChange={setSheetOpen} title="Find attendee" closeLabel="Close" trigger={<button type="button">Open</button>}>
      <button type="button" onClick={() => setAsking(true)}>
        Check in
      </button>
      <ConfirmDialog
        open={isAsking}
        onOpenChange={setAsking}
        title="Check in Ada?"
        description="This cannot be taken back."
        cancelLabel="Cancel"
        confirmLabel="Check in"
        onConfirm={() => setAsking(false)}
      />
    </Sheet>
  );
}

test("Android's back button closes the dialog opened last first: the question, then the sheet under it", async () => {
  const { user } = renderWithProviders(<SheetWithQuestion />);
  await user.click(await screen.findByRole('button', { name: 'Check in' }));
  expect(await screen.findByRole('alertdialog', { name: 'Check in Ada?' })).toBeInTheDocument();
  await flushBridge();

  emit('App', 'backButton', { canGoBack: true });
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  expect(screen.getByRole('dialog', { name: 'Find attendee' })).toBeInTheDocument();

  emit('App', 'backButton', { canGoBack: true });
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(called('App', 'exitApp')).toHaveLength(0);
});

test('the screen is kept awake only while the camera runs, not while the panel is merely open', async () => {
  const { user } = renderApp({ route: '/scanner', selection });
  await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
  await flushBridge();
  expect(called('KeepAwake', 'keepAwake')).toHaveLength(0);

  await user.click(screen.getByRole('button', { name: 'Start Camera' }));
  await waitFor(() => expect(called('KeepAwake', 'keepAwake')).toHaveLength(1));
  await user.click(screen.getByRole('button', { name: 'Stop Camera' }));
  await waitFor(() => expect(called('KeepAwake', 'allowSleep')).toHaveLength(1));
  // The panel is still open; the phone may sleep.
  expect(screen.getByRole('button', { name: 'Stop Scanning' })).toBeInTheDocument();
});

test('a camera still starting when the app goes to the background is not left running there', async () => {
  const { user } = renderApp({ route: '/scanner', selection });
  await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
  await flushBridge();
  // The phone's side: the moment ML Kit is asked to start, the OS sends the app to the background,
  // before ML Kit's answer (which then says the camera is on).
  const bridge = (window as unknown as { androidBridge: { postMessage(json: string): void } }).androidBridge;
  const postMessage = bridge.postMessage.bind(bridge);
  bridge.postMessage = (json: string) => {
    const message = JSON.parse(json) as { pluginId?: string; methodName?: string };
    if (message.pluginId === 'BarcodeScanner' && message.methodName === 'startScan') void standIn().emit('App', 'appStateChange', { isActive: false });
    postMessage(json);
  };
  try {
    await user.click(screen.getByRole('button', { name: 'Start Camera' }));
    await waitFor(() => expect(called('BarcodeScanner', 'startScan')).toHaveLength(1));
  } finally {
    bridge.postMessage = postMessage;
  }
  await flushBridge();
  await flushBridge();
  await flushBridge();
  // Whatever the start got to, the camera is not left on in the background: no startScan without a
  // stopScan after it, and the screen says the camera is off.
  const lastStart = standIn().calls.findLastIndex((call) => call.pluginId === 'BarcodeScanner' && call.methodName === 'startScan');
  const lastStop = standIn().calls.findLastIndex((call) => call.pluginId === 'BarcodeScanner' && call.methodName === 'stopScan');
  expect(lastStop).toBeGreaterThan(lastStart);
  expect(screen.getByRole('button', { name: 'Start Camera' })).toBeEnabled();
  expect(screen.queryByText('Unable to access camera. Please check permissions.')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Stop Camera' })).toBeDisabled();
  expect(document.documentElement).not.toHaveClass(TRANSPARENT_WEBVIEW_CLASS);

  // Back in the app, the camera that was on its way is taken again.
  emit('App', 'appStateChange', { isActive: true });
  await waitFor(() => expect(screen.getByRole('button', { name: 'Stop Camera' })).toBeEnabled());
});
