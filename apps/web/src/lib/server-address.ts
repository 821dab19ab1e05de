/**
 * Which Gatecheck server the app talks to (issue 9 item 5, decision 030). In a browser it is always
 * the build's `VITE_API_BASE_URL` (default '/api', the page's own server). The native app has no
 * server of its own: staff enter the server's address once on the login screen; it is checked,
 * remembered in device Preferences (key `serverUrl`) and used by the api-client from then on.
 *
 * Accepted addresses: https anywhere; http only on a private network (loopback, 10/8, 172.16/12,
 * 192.168/16, 169.254/16, IPv6 unique-local and link-local, `localhost`, `*.local`), where a door
 * team runs a server on a laptop without a certificate. The address may be given with or without
 * the '/api' path; the stored value is the API base (e.g. 'https://gate.example.com/api').
 */
import { apiPaths } from '@gatecheck/contract/paths';
import { AuthOptionsResponse } from '@gatecheck/contract/sign-in';
import { SERVER_CHECK_TIMEOUT_MS } from '@/config/constants.ts';
import { env } from '@/config/env.ts';
import { compatibilityOf, resetApiCompatibility } from './api-compatibility.ts';
import { t } from './i18n/index.ts';
import { isNativePlatform } from './native/platform.ts';
import { preferencesGet, preferencesSet } from './native/preferences.ts';

/** Device Preferences key of the API base chosen on the login screen (native only). */
export const SERVER_ADDRESS_KEY = 'serverUrl';

/**
 * Why a server address cannot be used. 'server_too_old' / 'app_too_old': a Gatecheck server answered,
 * but speaks a contract this app does not (docs/decisions/094).
 */
export type ServerAddressProblem = 'empty' | 'invalid' | 'insecure' | 'unreachable' | 'timeout' | 'server_too_old' | 'app_too_old';

/**
 * What the login screen says about a server address that cannot be used, in the active language
 * (`serverAddress.*` in lib/i18n), e.g. 'Use an https address. http is accepted only for a server
 * on a private network, such as http://192.168.1.20:3000.'; `timeout` names SERVER_CHECK_TIMEOUT_MS
 * in seconds.
 */
export function serverAddressMessage(problem: ServerAddressProblem): string {
  if (problem === 'timeout') return t('serverAddress.timeout', { seconds: SERVER_CHECK_TIMEOUT_MS / 1000 });
  if (problem === 'server_too_old') return t('serverAddress.serverTooOld');
  if (problem === 'app_too_old') return t('serverAddress.appTooOld');
  return t(`serverAddress.${problem}`);
}

/** True for a hostname (as `URL` normalises it) on a private or loopback network. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  const ipv4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (ipv4) {
    const [a, b] = [Number(ipv4[1]), Number(ipv4[2])];
    return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (host.includes(':')) return host === '::1' || /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
  return false;
}

/**
 * The API base for a typed server address, or the problem with it. Never throws.
 * @example parseServerAddress('gate.example.com') → { apiBaseUrl: 'https://gate.example.com/api' }
 */
export function parseServerAddress(text: string): { apiBaseUrl: string; problem?: undefined } | { apiBaseUrl?: undefined; problem: ServerAddressProblem } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: 'empty' };
  // A bare host means https, the only scheme accepted everywhere.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  if (!URL.canParse(withScheme)) return { problem: 'invalid' };
  const url = new URL(withScheme);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '' || url.username || url.search || url.hash) return { problem: 'invalid' };
  if (url.protocol === 'http:' && !isPrivateHost(url.hostname)) return { problem: 'insecure' };
  const path = url.pathname.replace(/\/+$/, '');
  return { apiBaseUrl: `${url.origin}${path.endsWith('/api') ? path : `${path}/api`}` };
}

/** The address to show for an API base: without its '/api' ending. */
export function displayServerAddress(apiBaseUrl: string): string {
  return apiBaseUrl.replace(/\/api$/, '');
}

/** The build's API base when it is absolute (the native app's prefill), else ''. */
function buildTimeAddress(): string {
  return /^https?:\/\//.test(env.apiBaseUrl) ? env.apiBaseUrl : '';
}

let currentApiBase: string = env.apiBaseUrl;

/** The API base in use now: the build's on the web; on native the remembered one (after `loadServerAddress`). */
export function currentApiBaseUrl(): string {
  return currentApiBase;
}

/** The server address to prefill on the native login screen: the remembered one, else the build's absolute one, else ''. */
export function serverAddressPrefill(): string {
  const base = currentApiBase.startsWith('/') ? buildTimeAddress() : currentApiBase;
  return base === '' ? '' : displayServerAddress(base);
}

/**
 * Sets the API base in use from scratch (at app start, before the first call): the build's, then on
 * native the server remembered in Preferences. Never rejects: an unreadable or invalid value keeps
 * the build's base.
 */
export async function loadServerAddress(): Promise<void> {
  currentApiBase = env.apiBaseUrl;
  if (!isNativePlatform()) return;
  try {
    const stored = await preferencesGet(SERVER_ADDRESS_KEY);
    const parsed = stored === null ? null : parseServerAddress(stored);
    if (parsed?.apiBaseUrl) currentApiBase = parsed.apiBaseUrl;
  } catch {
    // Unreadable Preferences: the login screen asks again.
  }
}

/**
 * Uses `apiBaseUrl` from now on and remembers it on the device.
 * @throws when Preferences cannot store it (the base is still used until the app closes)
 */
export async function saveServerAddress(apiBaseUrl: string): Promise<void> {
  currentApiBase = apiBaseUrl;
  // What the previous server said of its version says nothing of this one.
  resetApiCompatibility();
  await preferencesSet(SERVER_ADDRESS_KEY, apiBaseUrl);
}

/**
 * Asks the server at `apiBaseUrl` for its sign-in options (`GET /auth/options`, public) to make sure
 * a Gatecheck server answers there and speaks this app's contract (its version headers,
 * docs/decisions/094). Resolves null when it does, else the problem; gives up after
 * `timeoutMs` (default `SERVER_CHECK_TIMEOUT_MS`, 8000 ms), so a wrong address never hangs the screen.
 */
export async function checkServerAddress(apiBaseUrl: string, timeoutMs: number = SERVER_CHECK_TIMEOUT_MS): Promise<ServerAddressProblem | null> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(`${apiBaseUrl}${apiPaths.authOptions}`, { headers: { Accept: 'application/json' }, signal: timeout });
    if (!response.ok) return 'unreachable';
    // A Gatecheck server that speaks a contract this app does not is refused before sign-in, in words.
    const compatibility = compatibilityOf(response.headers);
    if (compatibility !== undefined && compatibility !== 'ok') return compatibility;
    return AuthOptionsResponse.safeParse(await response.json()).success ? null : 'unreachable';
  } catch {
    return timeout.aborted ? 'timeout' : 'unreachable';
  }
}
