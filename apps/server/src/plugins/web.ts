/**
 * Serves the built web app (WEB_DIST_DIR) at `/` (issue 15 items 5 and 6, docs/decisions/024):
 *
 * - Files as built, with their brotli/gzip siblings (`x.js.br`, `x.js.gz`, made by the web build)
 *   sent instead to browsers that accept them (`Content-Encoding`, `Vary: Accept-Encoding`).
 * - Caching: Vite names everything under `assets/` by content hash, so those are
 *   `public, max-age=31536000, immutable`; everything else (index.html above all) is `no-cache`, so a
 *   new build is picked up on the next load. That includes the service worker `sw.js`, its Workbox
 *   runtime and `manifest.webmanifest` (issue 12 item 1, docs/decisions/055): a cached worker
 *   would keep devices on an old app.
 * - SPA fallback only for a page load: a GET/HEAD navigation (`Sec-Fetch-Mode: navigate`, or an
 *   `Accept` that names text/html) to a path outside `/api` whose last segment has no file
 *   extension gets index.html, so deep links such as /scanner load the app (which shows its own 404
 *   page for unknown routes, SPEC §2). Anything else that is missing — `/favicon.ico` without a
 *   build, `/manifest.json`, a script, a fetch — is a plain 404 `{ code, message }`, never the app's
 *   HTML with 200.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_PREFIX } from '@gatecheck/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Cache-Control of content-hashed build files: a year, never revalidated. */
export const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Cache-Control of everything else, index.html first: revalidate on every use. */
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/**
 * True when `request` is a browser loading a page of the app (not a script, image, fetch or API
 * call): GET/HEAD, `Sec-Fetch-Mode: navigate` or an `Accept` naming text/html, and a path outside
 * `/api` whose last segment has no extension (`/scanner`, not `/manifest.json`).
 */
export function isAppNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '';
  if (pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`)) return false;
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  if (lastSegment.includes('.')) return false;
  const isNavigate = request.headers['sec-fetch-mode'] === 'navigate';
  const acceptsHtml = /\btext\/html\b/i.test(request.headers.accept ?? '');
  return isNavigate || acceptsHtml;
}

/**
 * The Content-Security-Policy sources (`'sha256-<base64>'`) of the inline scripts of the built
 * index.html in `webDistDir`: the boot script the web build puts in its `<head>` (docs/decisions/099).
 * `script-src` names them so that exactly these scripts run inline, without 'unsafe-inline'. Read
 * once, when the app is built: a web app rebuilt under a running server needs the server restarted
 * (`npm start` builds first). Empty when there is no built app.
 */
export function inlineScriptHashesOf(webDistDir: string): string[] {
  const indexHtml = path.join(webDistDir, 'index.html');
  if (!existsSync(indexHtml)) return [];
  const html = readFileSync(indexHtml, 'utf8');
  const hashes = new Set<string>();
  // A script element with no src whose content runs: no type, or a JavaScript one (not a JSON data block).
  for (const [, attributes = '', content = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(attributes)) continue;
    const type = /\stype\s*=\s*"([^"]*)"/i.exec(attributes)?.[1]?.toLowerCase();
    if (type !== undefined && type !== '' && type !== 'module' && !type.includes('javascript')) continue;
    hashes.add(`'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

async function webPlugin(app: FastifyInstance, options: { webDistDir: string }): Promise<void> {
  const hasWebApp = existsSync(path.join(options.webDistDir, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: options.webDistDir,
      // An array: with preCompressed, @fastify/static 10 looks a directory's index up only in an array
      // (a plain string answers `/` with 404 to every browser that accepts brotli or gzip).
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const isHashedAsset = path.relative(options.webDistDir, filePath).split(path.sep)[0] === 'assets';
        reply.header('cache-control', isHashedAsset ? HASHED_ASSET_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL);
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (hasWebApp && isAppNavigation(request)) {
      return reply.type('text/html').header('cache-control', REVALIDATE_CACHE_CONTROL).sendFile('index.html');
    }
    return reply.status(404).send({ code: 'not_found', message: 'No such route.' });
  });
}

export default fp(webPlugin, { name: 'web' });
