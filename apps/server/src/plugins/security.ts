/**
 * The app's defences, all through maintained Fastify plugins and registered before any route:
 *
 * - Security headers (helmet, its middleware built once) with a Content-Security-Policy that fits the SPA: scripts from
 *   our origin only plus `'wasm-unsafe-eval'` for the zxing WebAssembly decoder and the hash of index.html's inline boot script, images from blob:
 *   and data:, camera media, and `connect-src` limited to our origin and `CSP_CONNECT_SRC`.
 * - CORS (@fastify/cors) for the configured origins only (`CORS_ORIGINS`, e.g. the Capacitor app's
 *   `capacitor://localhost`, `https://localhost`), with credentials.
 * - CSRF: OWASP's "verify origin with standard headers" for state-changing requests
 *   (docs/decisions/010, 084).
 * - Rate limits: plugins/rate-limits.ts (docs/decisions/019, 083).
 */
import cors from '@fastify/cors';
import { API_VERSION_HEADER, OLDEST_APP_API_VERSION_HEADER } from '@gatecheck/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { Config } from '../config.ts';
import { bearerTokenOf } from './auth.ts';
import { inlineScriptHashesOf } from './web.ts';
import { ServiceError } from '../services/errors.ts';

/** Methods that never change state; everything else is checked for CSRF. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The plugin's option: the security-headers setter the app built once (`securityHeadersSetter`). */
export interface SecurityPluginOptions {
  setSecurityHeaders: (request: FastifyRequest, reply: FastifyReply) => void;
}

async function securityPlugin(app: FastifyInstance, { setSecurityHeaders }: SecurityPluginOptions): Promise<void> {
  const { config } = app;
  const trustedOrigins = new Set([...config.corsOrigins, new URL(config.publicUrl).origin]);

  // helmet's middleware built once, by the app (the same setter answers Fastify's router errors):
  // @fastify/helmet builds it again for every request (its `buildHelmetOnRoutes`), which showed in
  // the verify benchmark's CPU profile.
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(request, reply);
    done();
  });

  // @fastify/cors answers an OPTIONS request that is not a CORS preflight with a text/plain 400;
  // every answer under /api is `{ code, message }` (issue 15 item 16).
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'OPTIONS') return;
    if (request.headers.origin && request.headers['access-control-request-method']) return;
    throw new ServiceError('bad_request', 'An OPTIONS request here must be a CORS preflight (Origin and Access-Control-Request-Method headers).');
  });

  await app.register(cors, {
    origin: [...config.corsOrigins],
    credentials: true,
    // PATCH and DELETE: the check-in list writes (docs/decisions/115), from the app on a phone too.
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'Accept'],
    // The app on a phone (another origin) reads how long a 429 asks it to wait, to say it in German,
    // and which contract the server speaks (docs/decisions/094).
    exposedHeaders: ['Retry-After', API_VERSION_HEADER, OLDEST_APP_API_VERSION_HEADER],
    maxAge: 600,
  });

  app.addHook('onRequest', async (request) => {
    assertSameSiteOrigin(request, trustedOrigins);
  });
}

/**
 * The security headers (helmet) of every answer, with a Content-Security-Policy that fits the SPA
 * (see the module comment).
 */
function helmetOptionsOf(config: Config) {
  return {
    contentSecurityPolicy: {
      useDefaults: false as const,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the page compile WebAssembly (the zxing decoder) without allowing eval().
        // The hashes: index.html's inline boot script, exactly (docs/decisions/099); never 'unsafe-inline'.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...inlineScriptHashesOf(config.webDistDir)],
        scriptSrcAttr: ["'none'"],
        // UI libraries (toasts, swagger-ui) insert <style> elements; styles cannot run code.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'blob:', 'data:'],
        mediaSrc: ["'self'", 'blob:', 'mediastream:'],
        workerSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...config.cspConnectSrc],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // No upgrade-insecure-requests: on a venue LAN the app is served over plain http (HOST=0.0.0.0).
      },
    },
    // X-Frame-Options for browsers without frame-ancestors, saying the same.
    frameguard: { action: 'deny' as const },
  };
}

/**
 * Sets the security headers (helmet's middleware, built once here from `helmetOptionsOf`) on an
 * answer. buildApp makes one and uses it for every request (this plugin's onRequest hook) and for
 * the answers no hook sees (Fastify's router errors, answered before any hook runs: see
 * `answerFrameworkError` in plugins/errors.ts).
 */
export function securityHeadersSetter(config: Config): (request: FastifyRequest, reply: FastifyReply) => void {
  const setHeaders = helmet(helmetOptionsOf(config));
  return (request, reply) => {
    setHeaders(request.raw, reply.raw, () => {});
  };
}

/**
 * OWASP "verify origin with standard headers": a state-changing request that presents an Origin
 * (else a Referer) must come from our own origin, PUBLIC_URL's or a CORS origin.
 * - Requests whose session token comes from an `Authorization: Bearer <token>` header are exempt:
 *   they are never authenticated by the cookie (plugins/auth.ts reads the header first) and a
 *   foreign page cannot set that header. Any other Authorization header (empty, `Basic …`, a bare
 *   `Bearer`) exempts nothing: with an empty one the session would come from the cookie.
 * - Requests with neither header come from non-browser clients (every current browser sends Origin
 *   on cross-origin POSTs), which cannot carry a victim's cookie.
 * Combined with JSON-only bodies (forms cannot send application/json; fetch needs a CORS preflight).
 * @throws ServiceError `csrf_failed` (403).
 */
function assertSameSiteOrigin(request: FastifyRequest, trustedOrigins: ReadonlySet<string>): void {
  if (SAFE_METHODS.has(request.method) || bearerTokenOf(request) !== undefined) return;
  const source = request.headers.origin ?? originOfUrl(request.headers.referer);
  if (source === undefined) return;
  if (source === ownOriginOf(request) || trustedOrigins.has(source)) return;
  throw new ServiceError('csrf_failed', 'This request came from another site and was refused.');
}

/** The origin this request was sent to, as a browser writes it (no default port). */
function ownOriginOf(request: FastifyRequest): string {
  return originOfUrl(`${request.protocol}://${request.host}`) ?? 'null';
}

/** The origin of an absolute URL; `'null'` (never trusted) for anything unparsable. */
function originOfUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  return URL.canParse(url) ? new URL(url).origin : 'null';
}

/** Registers headers (with the app's `setSecurityHeaders`), CORS and the CSRF check for the whole app; register before the routes. */
export default fp(securityPlugin, { name: 'security', dependencies: ['errors'] });
