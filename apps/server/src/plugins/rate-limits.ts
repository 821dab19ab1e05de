/**
 * The account calls' rate limits (docs/decisions/019, 083), built from the configuration:
 *
 * - `app.signInLimit`: failed sign-ins per account and address, per address and per account; POST
 *   /auth/login reserves an attempt before checking the password and reports a success
 *   (services/users.ts `signIn`).
 * - Every request counts on POST /auth/register and /auth/forgot-password (per IP, and per email
 *   of the body) and /auth/change-password (per IP: each guess of the current password costs an
 *   argon2 hash). Attached to those routes by an `onRoute` hook, so route files stay unaware.
 *
 * Over a limit: 429 `{ code: 'rate_limited', message }` with Retry-After (services/errors.ts
 * RateLimitedError, answered by plugins/errors.ts). `request.ip` follows X-Forwarded-For only as far as
 * TRUST_PROXY trusts the proxies in front (docs/decisions/085). The counters live in the database (`rate_limits`), shared by every instance on
 * it (docs/decisions/040). Register after the db plugin and before the routes.
 */
import { API_PREFIX, apiPaths, deviceApiPaths, requestText, teamPaths } from '@gatecheck/contract';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { databaseLimiters, deleteExpiredLimits, RequestLimit, SignInLimit } from '../services/rate-limits.ts';

/** How often long-expired counter rows are deleted (ms). */
const CLEAN_UP_EVERY_MS = 5 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Failed sign-ins per account and address, per address and per account (services/rate-limits.ts). */
    signInLimit: SignInLimit;
  }
}

/**
 * POST routes where every request counts per IP (full URLs); the device enrollment too
 * (docs/decisions/107), and the invitation link's two calls: each is a guess at a one-time token,
 * and joining costs an argon2 hash (docs/decisions/115).
 */
const PER_IP_URLS: readonly string[] = [
  apiPaths.register,
  apiPaths.forgotPassword,
  apiPaths.changePassword,
  deviceApiPaths.redeemEnrollment,
  teamPaths.acceptInvitation,
  teamPaths.joinWithNewAccount,
].map(
  (pathname) => `${API_PREFIX}${pathname}`,
);
/** POST routes where every request also counts per email of the body. */
const PER_EMAIL_URLS: readonly string[] = [apiPaths.register, apiPaths.forgotPassword].map((pathname) => `${API_PREFIX}${pathname}`);

/** The email a limited request is about: trimmed and lower-cased, so case tricks share one counter. */
// Only text the database can store becomes part of a counter's key (a NUL or a lone surrogate would
// fail the counter's INSERT with a 500); such a body still counts per IP, then fails validation (400).
const EmailField = z.object({ email: requestText().trim().toLowerCase().min(1).max(254) });

/**
 * Whether the route `method` `url` (full URL, `/api/...`) is rate limited: sign-in (failed attempts),
 * the routes above, and verify (its refusals per user, routes/tickets: docs/decisions/086). Its
 * OpenAPI document then declares 429 (plugins/openapi.ts).
 */
export function isRateLimitedRoute(method: string, url: string): boolean {
  return method === 'POST' && (url === `${API_PREFIX}${apiPaths.login}` || url === `${API_PREFIX}${apiPaths.verifyTicket}` || PER_IP_URLS.includes(url));
}

type Hook = (request: FastifyRequest) => Promise<void>;

async function rateLimitsPlugin(app: FastifyInstance): Promise<void> {
  const limits = app.config.rateLimit;
  const durationSeconds = Math.ceil(limits.windowMs / 1000);
  // In the database: every instance serving it shares the counters (docs/decisions/040).
  const createLimiter = databaseLimiters(app.db);
  app.decorate('signInLimit', new SignInLimit(limits, app.db));

  // Long-expired counters go every few minutes (every instance does it; the DELETE is idempotent).
  const cleanUp = setInterval(() => {
    deleteExpiredLimits(app.db, new Date()).catch((error: unknown) => app.log.warn({ err: error }, 'deleting expired rate-limit counters failed'));
  }, CLEAN_UP_EVERY_MS);
  cleanUp.unref();
  app.addHook('onClose', async () => clearInterval(cleanUp));

  const perIp = new RequestLimit({ keyPrefix: 'requests-ip', points: limits.ipMax, durationSeconds }, createLimiter);
  const perEmail = new RequestLimit({ keyPrefix: 'requests-email', points: limits.accountMax, durationSeconds }, createLimiter);

  // onRequest: before the body is read, so malformed requests count too.
  const limitIp: Hook = (request) => perIp.consume(`${request.routeOptions.url ?? ''} ${request.ip}`);
  // preValidation: the body is parsed, not yet validated.
  const limitEmail: Hook = async (request) => {
    const body = EmailField.safeParse(request.body);
    if (body.success) await perEmail.consume(`${request.routeOptions.url ?? ''} ${body.data.email}`);
  };

  app.addHook('onRoute', (route) => {
    if (route.method !== 'POST') return;
    if (PER_IP_URLS.includes(route.url)) appendHook(route, 'onRequest', limitIp);
    if (PER_EMAIL_URLS.includes(route.url)) appendHook(route, 'preValidation', limitEmail);
  });
}

function appendHook(route: RouteOptions, name: 'onRequest' | 'preValidation', hook: Hook): void {
  const existing = route[name];
  route[name] = existing === undefined ? [hook] : Array.isArray(existing) ? [...existing, hook] : [existing, hook];
}

/** Registers the rate limits; see the module comment. */
export default fp(rateLimitsPlugin, { name: 'rate-limits', dependencies: ['errors', 'db'] });
