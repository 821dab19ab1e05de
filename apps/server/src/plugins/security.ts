/**
 * The app's defences, all through maintained Fastify plugins and registered before any route:
 *
 * - Security headers (@fastify/helmet) with a Content-Security-Policy that fits the SPA: scripts from
 *   our origin only plus `'wasm-unsafe-eval'` for the zxing WebAssembly decoder, images from blob:
 *   and data:, camera media, and `connect-src` limited to our origin and `CSP_CONNECT_SRC`.
 * - CORS (@fastify/cors) for the configured origins only (`CORS_ORIGINS`, e.g. the Capacitor app's
 *   `capacitor://localhost`, `https://localhost`), with credentials.
 * - CSRF: OWASP's "verify origin with standard headers" for state-changing requests
 *   (docs/decisions/010).
 * - Rate limits (@fastify/rate-limit) on login, register and forgot-password, per client IP and per
 *   account (the body's `email`, lower-cased), and on change-password per IP, answering 429 `{ code: 'rate_limited', message }` with
 *   Retry-After (docs/decisions/011).
 */
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import { API_PREFIX, apiPaths } from '@gatecheck/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ServiceError } from '../services/errors.ts';

/** Methods that never change state; everything else is checked for CSRF. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The POST routes with rate limits (full URLs). */
const RATE_LIMITED_URLS: readonly string[] = [
  apiPaths.login,
  apiPaths.register,
  apiPaths.forgotPassword,
  // Guessing the current password needs a session, but each guess still costs an argon2 hash: per IP.
  apiPaths.changePassword,
].map((pathname) => `${API_PREFIX}${pathname}`);

/** The account a rate-limited request is about: its `email` field (login's holds an email or a username). */
const AccountField = z.object({ email: z.string().trim().toLowerCase().min(1).max(254) });

async function securityPlugin(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const trustedOrigins = new Set([...config.corsOrigins, new URL(config.publicUrl).origin]);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the page compile WebAssembly (the zxing decoder) without allowing eval().
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
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
    frameguard: { action: 'deny' },
  });

  await app.register(cors, {
    origin: [...config.corsOrigins],
    credentials: true,
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['Content-Type', 'Authorization', 'Accept'],
    maxAge: 600,
  });

  app.addHook('onRequest', async (request) => {
    assertSameSiteOrigin(request, trustedOrigins);
  });

  await app.register(rateLimit, { global: false });
  const windowMs = config.rateLimit.windowMs;
  const perIp = app.createRateLimit({
    max: config.rateLimit.ipMax,
    timeWindow: windowMs,
    keyGenerator: (request) => `${request.routeOptions.url ?? ''} ip ${request.ip}`,
  });
  const perAccount = app.createRateLimit({
    max: config.rateLimit.accountMax,
    timeWindow: windowMs,
    keyGenerator: (request) => `${request.routeOptions.url ?? ''} account ${accountOf(request) ?? ''}`,
  });

  async function limitIp(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    enforce(await perIp(request), reply);
  }
  // preValidation: the body is parsed but not yet validated, so invalid attempts count too.
  async function limitAccount(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (accountOf(request) === undefined) return;
    enforce(await perAccount(request), reply);
  }

  app.addHook('onRoute', (route) => {
    if (route.method !== 'POST' || !RATE_LIMITED_URLS.includes(route.url)) return;
    appendHook(route, 'onRequest', limitIp);
    appendHook(route, 'preValidation', limitAccount);
  });
}

/**
 * OWASP "verify origin with standard headers": a state-changing request that presents an Origin
 * (else a Referer) must come from our own origin, PUBLIC_URL's or a CORS origin.
 * - Requests with an Authorization header are exempt: they are never authenticated by the cookie
 *   (plugins/auth.ts reads the header first) and a foreign page cannot set that header.
 * - Requests with neither header come from non-browser clients (every current browser sends Origin
 *   on cross-origin POSTs), which cannot carry a victim's cookie.
 * Combined with JSON-only bodies (forms cannot send application/json; fetch needs a CORS preflight).
 * @throws ServiceError `csrf_failed` (403).
 */
function assertSameSiteOrigin(request: FastifyRequest, trustedOrigins: ReadonlySet<string>): void {
  if (SAFE_METHODS.has(request.method) || request.headers.authorization !== undefined) return;
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

function accountOf(request: FastifyRequest): string | undefined {
  const parsed = AccountField.safeParse(request.body);
  return parsed.success ? parsed.data.email : undefined;
}

type LimitResult = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>;
type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Sets the RateLimit headers and throws 429 with Retry-After when the limit is exceeded. */
function enforce(result: LimitResult, reply: FastifyReply): void {
  if (result.isAllowed) return;
  reply.header('x-ratelimit-limit', result.max);
  reply.header('x-ratelimit-remaining', result.remaining);
  reply.header('x-ratelimit-reset', result.ttlInSeconds);
  if (!result.isExceeded) return;
  reply.header('retry-after', result.ttlInSeconds);
  throw new ServiceError('rate_limited', `Too many attempts. Try again in ${describeSeconds(result.ttlInSeconds)}.`);
}

function describeSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

function appendHook(route: RouteOptions, name: 'onRequest' | 'preValidation', hook: Hook): void {
  const existing = route[name];
  route[name] = existing === undefined ? [hook] : Array.isArray(existing) ? [...existing, hook] : [existing, hook];
}

/** Registers headers, CORS, CSRF and rate limits for the whole app; register before the routes. */
export default fp(securityPlugin, { name: 'security', dependencies: ['errors'] });
