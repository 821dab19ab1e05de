/**
 * Issue 9: the native app's paths in the built app, on Capacitor's real Android bridge with the Java
 * side played in the page (support/native-app.ts). Real server, real database. The job: the Server
 * field, sign-in with a bearer token (no cookie), Preferences storage, organization → event → today's
 * day → scanner, an ML Kit scan → APPROVED (one verification for many frames), the same code →
 * DENIED, a restart resuming at /scanner from Preferences, and a refused camera → SPEC §8. And the
 * live door's CSV export on the phone: written to the app's cache and handed to the share sheet
 * (docs/decisions/144), the WebView ignoring a browser download; a full disk said in a toast.
 */
import { request as playwrightRequest, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import type { CapacitorStandIn } from '../src/test/capacitor-stand-in.ts';
import { findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, screen, startScanning } from './support/main-job.ts';
import { DEMO_SUPERVISOR, DEMO_USER } from './support/demo-scope.ts';
import {
  getUserMediaCalls,
  installNativeShell,
  nativeCalls,
  nativeListenerCount,
  nativePreference,
  nativeScan,
  setNativeCameraPermission,
} from './support/native-app.ts';

/** Alpha (0–255) of the page's own paint at (x, y) in CSS px: 0 where the camera behind the WebView shows. */
async function pageAlphaAt(page: Page, points: Array<{ x: number; y: number }>): Promise<number[]> {
  const png = PNG.sync.read(await page.screenshot({ omitBackground: true, animations: 'disabled' }));
  const scale = png.width / (page.viewportSize()?.width ?? png.width);
  return points.map(({ x, y }) => png.data[(Math.round(y * scale) * png.width + Math.round(x * scale)) * 4 + 3] ?? -1);
}

test('the native app signs in to the chosen server with a bearer token, scans with ML Kit, resumes after a restart, and handles a refused camera', async ({
  page,
  context,
  baseURL,
  ticketPool,
  saveScreen,
}) => {
  await installNativeShell(page, 'prompt');
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);

  // The Server field (only in the native app). A public http address is refused before any call.
  const serverField = page.getByLabel('Server');
  await expect(serverField).toBeVisible();
  await serverField.fill('http://gate.example.com');
  await page.getByLabel('Email or Username').fill(DEMO_USER.email);
  await page.getByLabel('Password').fill(DEMO_USER.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Use an https address. http is accepted only for a server on a private network')).toBeVisible();
  await saveScreen(page, 'native-login-server-refused', { fullPage: false });

  // The test server is on 127.0.0.1: a private network, so http is accepted.
  await serverField.fill(baseURL ?? '');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/organization-select$/);
  expect(await nativePreference(page, 'serverUrl')).toBe(`${baseURL}/api`);

  // Bearer token in device Preferences; no session cookie, nothing in the web's localStorage key.
  const storedUser = JSON.parse((await nativePreference(page, 'user')) ?? 'null') as { token?: string } | null;
  expect(storedUser?.token).toEqual(expect.any(String));
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  expect(await context.cookies()).toEqual([]);

  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${storedUser?.token ?? ''}` } });
  const scope = await findLiveThreeDayEvent(api);
  await api.dispose();
  const today = todaysDayNumber(scope.event);

  await chooseOrganization(page, scope.organization.name);
  await chooseEvent(page, scope.event.title);
  await chooseDay(page, today);
  for (const key of ['selectedOrganization', 'selectedEvent', 'selectedDay']) expect(await nativePreference(page, key), key).not.toBeNull();

  // An ML Kit scan: the plugin reports the code on every frame it stays in view → one verification.
  const ticket = ticketPool.take(`for "${scope.event.title}" on all days`, (candidate) => candidate.eventTitle === scope.event.title && candidate.days === 'all');
  let verifyCalls = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/tickets/verify')) verifyCalls += 1;
  });
  await startScanning(page);
  await page.getByRole('button', { name: 'Start Camera' }).click();
  await expect.poll(() => nativeListenerCount(page, 'BarcodeScanner', 'barcodesScanned')).toBe(1);
  expect((await nativeCalls(page, 'BarcodeScanner', 'startScan'))[0]?.options).toEqual({ formats: ['QR_CODE'], lensFacing: 'BACK' });
  expect(await nativeCalls(page, 'BarcodeScanner', 'requestPermissions')).toHaveLength(1);
  // The camera shows through: the page is transparent while it runs.
  await expect(page.locator('html')).toHaveClass(/native-camera-behind/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
  // The camera shows inside the camera box only: the page paints nothing there, and everything around it.
  const box = await page.locator('[data-camera-preview]').boundingBox();
  if (!box) throw new Error('no camera box');
  const header = await page.getByText('Scanning For').boundingBox();
  const [insideBox, besideHeader, belowBox] = await pageAlphaAt(page, [
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    { x: (header?.x ?? 0) + (header?.width ?? 0) + 20, y: (header?.y ?? 0) + 2 },
    { x: box.x + 4, y: box.y + box.height + 4 },
  ]);
  expect({ insideBox, besideHeader, belowBox }).toEqual({ insideBox: 0, besideHeader: 255, belowBox: 255 });
  await saveScreen(page, 'native-scanner-camera', { fullPage: false });
  expect(await nativeScan(page, ticket.code, 5)).toBe(5);
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
  expect(verifyCalls).toBe(1);
  await expect(page.locator('html')).not.toHaveClass(/native-camera-behind/);
  await expect.poll(async () => (await nativeCalls(page, 'Haptics', 'notification')).map((call) => call.options)).toEqual([{ type: 'SUCCESS' }]);
  expect(await nativeCalls(page, 'KeepAwake', 'keepAwake')).toHaveLength(1);
  await saveScreen(page, 'native-scanner-approved', { fullPage: false });

  // The same code again → DENIED (already checked in).
  await page.getByRole('button', { name: 'Start Camera' }).click();
  await expect.poll(() => nativeListenerCount(page, 'BarcodeScanner', 'barcodesScanned')).toBe(1);
  await nativeScan(page, ticket.code, 3);
  await expectVerdict(page, { isValid: false, because: /^Already checked in/ });
  expect(verifyCalls).toBe(2);
  await expect.poll(async () => (await nativeCalls(page, 'Haptics', 'notification')).map((call) => call.options)).toEqual([{ type: 'SUCCESS' }, { type: 'ERROR' }]);
  expect(await getUserMediaCalls(page)).toBe(0);

  // Restart: the app closes and opens again on the same device (same Preferences, fresh tab memory).
  await page.close();
  const restarted = await context.newPage();
  await installNativeShell(restarted, 'denied');
  await restarted.goto('/');
  await expect(restarted).toHaveURL(/\/scanner$/);
  await expect(screen(restarted).getByText(scope.event.title)).toBeVisible();

  // The camera permission was refused in the system settings: SPEC §8, and a way to the settings.
  await setNativeCameraPermission(restarted, 'denied');
  await startScanning(restarted);
  await restarted.getByRole('button', { name: 'Start Camera' }).click();
  await expect(restarted.getByText('Unable to access camera. Please check permissions.')).toBeVisible();
  await expect(restarted.getByText('Camera Error').first()).toBeVisible();
  await saveScreen(restarted, 'native-camera-denied', { fullPage: false });
  await restarted.getByRole('button', { name: 'Open settings' }).click();
  await expect.poll(() => nativeCalls(restarted, 'BarcodeScanner', 'openSettings')).toHaveLength(1);
  expect(await nativeCalls(restarted, 'BarcodeScanner', 'startScan')).toHaveLength(0);
  expect(await getUserMediaCalls(restarted)).toBe(0);
});

test("a supervisor's CSV export on the phone is written to the app's cache and handed to the share sheet", async ({ page, baseURL, saveScreen }) => {
  await installNativeShell(page, 'granted');
  await page.goto('/');
  await page.getByLabel('Server').fill(baseURL ?? '');
  await page.getByLabel('Email or Username').fill(DEMO_SUPERVISOR.email);
  await page.getByLabel('Password').fill(DEMO_SUPERVISOR.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/organization-select$/);
  const token = (JSON.parse((await nativePreference(page, 'user')) ?? 'null') as { token?: string } | null)?.token ?? '';
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  const { event } = await findLiveThreeDayEvent(api);
  await api.dispose();
  const today = todaysDayNumber(event);

  await page.goto(`/events/${event._id}/live?day=${today}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Live door' })).toBeVisible();
  await page.getByRole('button', { name: 'Arrivals (CSV)' }).click();
  await expect.poll(() => nativeCalls(page, 'Share', 'share')).toHaveLength(1);
  const [written] = await nativeCalls(page, 'Filesystem', 'writeFile');
  expect(written?.options).toMatchObject({ path: `exports/arrivals-day-${today}.csv`, directory: 'CACHE' });
  // The server's CSV, as the plugin would write it (base64 over the bridge).
  expect(Buffer.from(String(written?.options.data), 'base64').toString('utf8')).toMatch(/^check_in_list,slot_start,slot_end,arrivals\r?\n/);
  expect((await nativeCalls(page, 'Share', 'share'))[0]?.options).toEqual({
    title: `arrivals-day-${today}.csv`,
    files: [`file:///standin-files:CACHE:exports/arrivals-day-${today}.csv`],
    dialogTitle: `Save or send arrivals-day-${today}.csv`,
  });
  await expect(page.getByRole('button', { name: 'Arrivals (CSV)' })).toBeEnabled();
  await expect(page.getByText(/could not be saved/)).toHaveCount(0);

  // A phone whose storage is full: the export says so in a toast.
  await page.evaluate(() => {
    (window as unknown as { capacitorStandIn: CapacitorStandIn }).capacitorStandIn.options.filesFail = true;
  });
  await page.getByRole('button', { name: 'Scan log (CSV)' }).click();
  await expect(page.getByText(`scan-log-day-${today}.csv could not be saved`)).toBeVisible();
  expect(await nativeCalls(page, 'Share', 'share')).toHaveLength(1);
  await saveScreen(page, 'native-live-door-export-failed', { fullPage: false });
});
