/**
 * Issue 25 items 1 and 2: the native app as a phone runs it. The built app is served at the
 * WebView's own origin (support/phone-origin.ts: `https://localhost` for Android, an equivalent of
 * iOS's `capacitor://localhost`), on Capacitor's real bridge with the Java side played in the page
 * (support/native-app.ts), against the real server at its own address (http://127.0.0.1:PORT), which
 * lets those origins in by CORS_ORIGINS only. The job: the Server field, sign-in, organization →
 * event → today's day, an ML Kit scan → APPROVED, the same code → DENIED, the app started again with
 * the server stopped for real, and logout once it is back. On the wire: every API call is
 * cross-origin with a real CORS preflight, carries the bearer token and no cookie, and the browser
 * keeps no cookie at all. The Android run is a WebView at the floor of docs/decisions/090, without
 * URL.canParse, AbortSignal.timeout, AbortSignal.any and String.prototype.isWellFormed
 * (src/boot/polyfills.js supplies them).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PREFIX, apiPaths } from '@gatecheck/contract';
import { parse } from 'acorn';
import { type BrowserContext, type CDPSession, type Page, request as playwrightRequest } from '@playwright/test';
import { DEMO_USER, findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { TicketPool, readDemoTickets } from './support/demo-tickets.ts';
import { expect, test as base } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, screen, startScanning } from './support/main-job.ts';
import { installNativeShell, nativeListenerCount, nativePreference, nativeScan } from './support/native-app.ts';
import { ANDROID_ORIGIN, IOS_EQUIVALENT_ORIGIN, newerApiState, removeNewerApis, servePhoneOrigin } from './support/phone-origin.ts';
import { type GatecheckServer, startGatecheckServer } from './support/server.ts';

/**
 * The phones' origins, set explicitly: the server's default list is not what this proves (and
 * outside development it may be empty). The literal `capacitor://localhost` is in it as on a real
 * deployment; its Chromium stand-in is too.
 */
const CORS_ORIGINS = ['capacitor://localhost', ANDROID_ORIGIN, 'http://localhost', IOS_EQUIVALENT_ORIGIN].join(',');

/** A server of the file's own, started with the phones' origins; a test may stop it and start it again. */
const test = base.extend<object, { phoneServer: { current: GatecheckServer } }>({
  phoneServer: [
    async ({}, use) => {
      const holder = { current: await startGatecheckServer('phone-origin', { env: { CORS_ORIGINS } }) };
      try {
        await use(holder);
      } finally {
        await holder.current.stop();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  // The app is not served by the server: nothing here may use the server's origin as a base.
  baseURL: async ({}, use) => {
    await use(undefined);
  },
});

/** A request to the server as it went on the wire: headers as sent (DevTools' "extra info"), lower-case names. */
interface WireRequest {
  url: string;
  method: string;
  /** The headers the request was made with (for a preflight, all it has: Chromium reports no "extra info" for one). */
  madeWith: Record<string, string>;
  /** The headers that went out, cookies included; undefined until reported, and for a preflight. */
  headers: Record<string, string> | undefined;
}

const lowerCaseNames = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), String(value)]));

/**
 * What the pages sent to the server, as Chromium's network stack saw it (DevTools protocol): the
 * CORS preflights and the calls, with the headers that really went out (Origin, Authorization,
 * Cookie), which Playwright's request events do not always have for a call answered from the cache.
 */
class ServerTraffic {
  private readonly requests = new Map<string, WireRequest>();

  constructor(private readonly serverOrigin: string) {}

  async watch(page: Page, context: BrowserContext): Promise<void> {
    const devtools: CDPSession = await context.newCDPSession(page);
    const entry = (requestId: string) => {
      const known = this.requests.get(requestId) ?? { url: '', method: '', madeWith: {}, headers: undefined };
      this.requests.set(requestId, known);
      return known;
    };
    devtools.on('Network.requestWillBeSent', (event) => {
      if (!event.request.url.startsWith(`${this.serverOrigin}/`)) return;
      Object.assign(entry(event.requestId), { url: event.request.url, method: event.request.method, madeWith: lowerCaseNames(event.request.headers) });
    });
    devtools.on('Network.requestWillBeSentExtraInfo', (event) => {
      entry(event.requestId).headers = lowerCaseNames(event.headers);
    });
    await devtools.send('Network.enable');
  }

  /** The CORS preflights that were made: where to, from which origin, for which method. */
  preflights(): Array<{ path: string; origin: string | undefined; requestMethod: string | undefined }> {
    return [...this.requests.values()]
      .filter((request) => request.method === 'OPTIONS')
      .map((request) => ({ path: new URL(request.url).pathname, origin: request.madeWith.origin, requestMethod: request.madeWith['access-control-request-method'] }));
  }

  /** The calls that went out (not the preflights): path, whether they carried a bearer token, a cookie, and their Origin. */
  calls(): Array<{ path: string; bearer: boolean; cookie: boolean; origin: string | undefined }> {
    return [...this.requests.values()]
      .flatMap((request) => (request.url !== '' && request.method !== 'OPTIONS' && request.headers !== undefined ? [{ ...request, headers: request.headers }] : []))
      .map((request) => ({
        path: new URL(request.url).pathname,
        bearer: /^Bearer \S+$/.test(request.headers.authorization ?? ''),
        cookie: 'cookie' in request.headers,
        origin: request.headers.origin,
      }));
  }
}

/** The public calls of SPEC §7: the only ones without a token. */
const PUBLIC_PATHS = new Set([`${API_PREFIX}${apiPaths.authOptions}`, `${API_PREFIX}${apiPaths.login}`]);

for (const phone of [
  { name: 'Android WebView at the floor (https://localhost, without the newer APIs src/boot/polyfills.js supplies)', origin: ANDROID_ORIGIN, oldWebView: true },
  { name: `iOS (capacitor://localhost, as ${IOS_EQUIVALENT_ORIGIN})`, origin: IOS_EQUIVALENT_ORIGIN, oldWebView: false },
]) {
  test(`${phone.name}: signs in to the server at its own address, scans, starts with the server stopped and logs out, bearer only`, async ({
    browser,
    phoneServer,
    saveScreen,
  }) => {
    test.setTimeout(150_000);
    const serverUrl = phoneServer.current.url;
    const serverOrigin = new URL(serverUrl).origin;
    // Chromium asks before a page it counts as public (ours is served by route interception, with no
    // address) reaches a loopback or LAN address (Local Network Access); a phone has allowed the app
    // that (Android: the INTERNET permission; iOS: its local-network prompt, once).
    const context = await browser.newContext({ viewport: { width: 412, height: 915 }, locale: 'en-US', timezoneId: 'UTC', permissions: ['local-network-access'] });
    await servePhoneOrigin(context, phone.origin);
    if (phone.oldWebView) await removeNewerApis(context);
    const label = phone.oldWebView ? 'android' : 'ios';
    const traffic = new ServerTraffic(serverOrigin);

    const page = await context.newPage();
    await installNativeShell(page, 'granted');
    await traffic.watch(page, context);
    await page.goto(`${phone.origin}/`);
    await expect(page).toHaveURL(`${phone.origin}/login`);

    // The Server field: the server's own address, checked (a cross-origin call) before signing in.
    await page.getByLabel('Server').fill(serverUrl);
    await page.getByLabel('Email or Username').fill(DEMO_USER.email);
    await page.getByLabel('Password').fill(DEMO_USER.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(`${phone.origin}/organization-select`);
    expect(await nativePreference(page, 'serverUrl')).toBe(`${serverUrl}/api`);
    // The Android run signed in on the fallbacks (src/boot/polyfills.js), the iOS run on the browser's own.
    expect(await newerApiState(page)).toEqual(
      phone.oldWebView
        ? { 'URL.canParse': 'fallback', 'AbortSignal.timeout': 'fallback', 'AbortSignal.any': 'fallback', 'String.prototype.isWellFormed': 'fallback' }
        : { 'URL.canParse': 'native', 'AbortSignal.timeout': 'native', 'AbortSignal.any': 'native', 'String.prototype.isWellFormed': 'native' },
    );
    const token = (JSON.parse((await nativePreference(page, 'user')) ?? 'null') as { token?: string } | null)?.token;
    expect(token).toEqual(expect.any(String));

    // Organization → event → today's day → the scanner.
    const api = await playwrightRequest.newContext({ baseURL: serverUrl, extraHTTPHeaders: { Authorization: `Bearer ${token ?? ''}` } });
    const scope = await findLiveThreeDayEvent(api);
    await api.dispose();
    await chooseOrganization(page, scope.organization.name);
    await chooseEvent(page, scope.event.title);
    await chooseDay(page, todaysDayNumber(scope.event));
    await saveScreen(page, `phone-origin-${label}-scanner`, { fullPage: false });

    // An ML Kit scan → APPROVED; the same code again → DENIED.
    const ticket = new TicketPool(readDemoTickets(phoneServer.current.dataDir)).take(
      `for "${scope.event.title}" on all days`,
      (candidate) => candidate.eventTitle === scope.event.title && candidate.days === 'all' && !usedCodes.has(candidate.code),
    );
    usedCodes.add(ticket.code);
    await startScanning(page);
    await page.getByRole('button', { name: 'Start Camera' }).click();
    await expect.poll(() => nativeListenerCount(page, 'BarcodeScanner', 'barcodesScanned')).toBe(1);
    await nativeScan(page, ticket.code, 3);
    await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
    await page.getByRole('button', { name: 'Start Camera' }).click();
    await expect.poll(() => nativeListenerCount(page, 'BarcodeScanner', 'barcodesScanned')).toBe(1);
    await nativeScan(page, ticket.code, 3);
    await expectVerdict(page, { isValid: false, because: /^Already checked in/ });
    await saveScreen(page, `phone-origin-${label}-denied`, { fullPage: false });

    // On the wire so far: cross-origin calls from the phone's origin, each behind a real CORS
    // preflight where the browser needs one; the token on every call but the public ones; no cookie.
    const verifyPath = `${API_PREFIX}${apiPaths.verifyTicket}`;
    await expect.poll(() => traffic.calls().filter((call) => call.path === verifyPath).length).toBe(2);
    const calls = traffic.calls();
    expect(calls.map((call) => call.path)).toEqual(expect.arrayContaining([`${API_PREFIX}${apiPaths.authOptions}`, `${API_PREFIX}${apiPaths.login}`]));
    for (const call of calls) {
      expect(call.origin, call.path).toBe(phone.origin);
      expect(call.cookie, call.path).toBe(false);
      expect(call.bearer, call.path).toBe(!PUBLIC_PATHS.has(call.path));
    }
    const preflights = traffic.preflights();
    expect(preflights.every((preflight) => preflight.origin === phone.origin)).toBe(true);
    expect(preflights).toContainEqual({ path: `${API_PREFIX}${apiPaths.login}`, origin: phone.origin, requestMethod: 'POST' });
    expect(preflights).toContainEqual({ path: verifyPath, origin: phone.origin, requestMethod: 'POST' });
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(async () => (await navigator.serviceWorker?.getRegistrations())?.length ?? 0)).toBe(0);

    // The server stops for real; the app is closed and opened again: it starts from the phone's own
    // files, signed in, at the scanner of the day, marked Offline.
    const { dataDir } = phoneServer.current;
    await phoneServer.current.stop({ keepData: true });
    await page.close();
    const restarted = await context.newPage();
    await installNativeShell(restarted, 'granted');
    await traffic.watch(restarted, context);
    await restarted.goto(`${phone.origin}/`);
    await expect(restarted).toHaveURL(`${phone.origin}/scanner`);
    await expect(screen(restarted).getByText(scope.event.title)).toBeVisible();
    await expect(restarted.getByTestId('offline-indicator')).toBeVisible();
    await expect(restarted.getByText('Session expired')).toHaveCount(0);
    await saveScreen(restarted, `phone-origin-${label}-offline-start`, { fullPage: false });

    // The server is back at the same address; the indicator goes, and Logout ends the session.
    phoneServer.current = await startGatecheckServer('phone-origin', { dataDir, port: Number(new URL(serverUrl).port), env: { CORS_ORIGINS } });
    await expect(restarted.getByTestId('offline-indicator')).toHaveCount(0, { timeout: 30_000 });
    await restarted.getByRole('button', { name: 'Back' }).click();
    await expect(restarted.getByRole('heading', { name: 'Select Event Day' })).toBeVisible();
    await restarted.getByRole('button', { name: 'Back' }).click();
    await expect(restarted.getByRole('heading', { name: /Choose Your Event/ })).toBeVisible();
    const logout = restarted.waitForResponse((response) => response.url() === `${serverUrl}${API_PREFIX}${apiPaths.logout}`);
    await restarted.getByRole('button', { name: 'Logout' }).click();
    expect((await logout).ok()).toBe(true);
    await expect(restarted).toHaveURL(`${phone.origin}/login`);
    expect(await nativePreference(restarted, 'user')).toBeNull();

    // The logout call too: bearer, no cookie; and still no cookie in the browser.
    await expect.poll(() => traffic.calls().find((call) => call.path === `${API_PREFIX}${apiPaths.logout}`)).toEqual({
      path: `${API_PREFIX}${apiPaths.logout}`,
      bearer: true,
      cookie: false,
      origin: phone.origin,
    });
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });
}

/** The built app (`npm run test:e2e` builds it first). */
const DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));

/** How many class static blocks (ES2022; Safari 16.4) an acorn syntax tree holds. */
function staticBlocksIn(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((sum: number, child) => sum + staticBlocksIn(child), 0);
  if (node === null || typeof node !== 'object') return 0;
  const own = (node as { type?: unknown }).type === 'StaticBlock' ? 1 : 0;
  return own + Object.values(node).reduce((sum: number, child) => sum + staticBlocksIn(child), 0);
}

test('every script of the build is JavaScript the floor parses: ES2022 at most, without class static blocks (Safari 16.4)', () => {
  const scripts = [
    ...readdirSync(join(DIST_DIR, 'assets')).filter((name) => name.endsWith('.js')).map((name) => ({ name: `assets/${name}`, sourceType: 'module' as const })),
    ...readdirSync(DIST_DIR).filter((name) => name.endsWith('.js')).map((name) => ({ name, sourceType: 'script' as const })),
  ];
  expect(scripts.length).toBeGreaterThan(10);
  const refused = scripts.flatMap(({ name, sourceType }) => {
    try {
      const blocks = staticBlocksIn(parse(readFileSync(join(DIST_DIR, name), 'utf8'), { ecmaVersion: 2022, sourceType }));
      return blocks > 0 ? [`${name}: ${blocks} class static block(s)`] : [];
    } catch (error) {
      return [`${name}: ${error instanceof Error ? error.message : String(error)}`];
    }
  });
  expect(refused).toEqual([]);
});

/** Tickets used by an earlier test of this file (both share one server). */
const usedCodes = new Set<string>();

