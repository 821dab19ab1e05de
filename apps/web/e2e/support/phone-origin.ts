/**
 * The built app as a phone serves it to its WebView (issue 25 item 2): from the app's own files, at
 * the WebView's origin, with the Gatecheck server elsewhere (its own address, so every API call is
 * cross-origin, as on a phone).
 *
 * `servePhoneOrigin(context, origin)` answers every request of the browser context to `origin` from
 * apps/web/dist (Playwright route interception), as Capacitor's local server does: a file when the
 * path names one, else index.html (the app's routes). Nothing reaches the network for that origin.
 *
 * The origins (docs/decisions/090):
 * - `ANDROID_ORIGIN` is the Android WebView's real origin, `https://localhost`.
 * - iOS serves the app at `capacitor://localhost`, a scheme Chromium cannot navigate to.
 *   `IOS_EQUIVALENT_ORIGIN` stands in for it: like it, an origin of its own (so the server lets it
 *   in only by CORS_ORIGINS), a secure context and without any server behind it. What is not the
 *   same, the literal `Origin: capacitor://localhost` header, is the server's tests' part
 *   (apps/server/test/security.test.ts).
 *
 * `removeNewerApis(context)` makes the browser a WebView at the floor of docs/decisions/090 for the
 * APIs the app needs a fallback for: URL.canParse, AbortSignal.timeout, AbortSignal.any and
 * String.prototype.isWellFormed are deleted before any script of a page runs (src/boot/polyfills.js
 * must put them back).
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';

const DIST_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

export const ANDROID_ORIGIN = 'https://localhost';
export const IOS_EQUIVALENT_ORIGIN = 'https://capacitor.localhost';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Serves apps/web/dist at `origin` for every page of `context` (see the module comment). */
export async function servePhoneOrigin(context: BrowserContext, origin: string): Promise<void> {
  await context.route(`${origin}/**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    const relative = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
    const isFile = extname(relative) !== '';
    const path = join(DIST_DIR, isFile ? relative : 'index.html');
    if (!path.startsWith(DIST_DIR)) return route.fulfill({ status: 404 });
    try {
      const body = await readFile(path);
      return await route.fulfill({ status: 200, body, contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream' });
    } catch {
      return await route.fulfill({ status: 404, body: 'Not found' });
    }
  });
}

/** Deletes URL.canParse, AbortSignal.timeout, AbortSignal.any and String.prototype.isWellFormed before any script of a page of `context` runs. */
export async function removeNewerApis(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    Reflect.deleteProperty(URL, 'canParse');
    Reflect.deleteProperty(AbortSignal, 'timeout');
    Reflect.deleteProperty(AbortSignal, 'any');
    Reflect.deleteProperty(String.prototype, 'isWellFormed');
  });
}

/** Whether each API the floor lacks is the browser's own (`native`), a fallback (`fallback`) or missing. */
export function newerApiState(page: Page): Promise<Record<'URL.canParse' | 'AbortSignal.timeout' | 'AbortSignal.any' | 'String.prototype.isWellFormed', 'native' | 'fallback' | 'missing'>> {
  return page.evaluate(() => {
    const state = (value: unknown) => (typeof value !== 'function' ? 'missing' : /\[native code\]/.test(Function.prototype.toString.call(value)) ? 'native' : 'fallback');
    return {
      'URL.canParse': state((URL as unknown as { canParse?: unknown }).canParse),
      'AbortSignal.timeout': state((AbortSignal as unknown as { timeout?: unknown }).timeout),
      'AbortSignal.any': state((AbortSignal as unknown as { any?: unknown }).any),
      'String.prototype.isWellFormed': state((String.prototype as unknown as { isWellFormed?: unknown }).isWellFormed),
    } as const;
  });
}
