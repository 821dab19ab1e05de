/**
 * Who is calling: a session token from `Authorization: Bearer <token>` (native app) or from the
 * HttpOnly session cookie (web, SPEC §7). `app.authenticate(request)` resolves the live session or
 * throws 401; the signed-in routes' hook (routes/signed-in.ts) stores it in `request.sessionUser`,
 * which handlers read with `signedInUser(request)`. `setSessionCookie`/`clearSessionCookie` manage
 * the cookie (docs/decisions/003).
 */
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ServiceError } from '../services/errors.ts';
import { findSessionUser, type SessionUser } from '../services/sessions.ts';

/** Name of the session cookie. */
const SESSION_COOKIE = 'gatecheck_session';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The signed-in user of `request`.
     * @throws ServiceError `unauthenticated` (401) without a live session.
     */
    authenticate(request: FastifyRequest): Promise<SessionUser>;
  }
  interface FastifyRequest {
    /** The signed-in user, set by the signed-in routes' hook (routes/signed-in.ts); null elsewhere. */
    sessionUser: SessionUser | null;
  }
}

/**
 * The signed-in user of a request to a signed-in route (its hook has authenticated it).
 * @throws ServiceError `unauthenticated` (401) when no hook signed the request in: a route outside
 *   the signed-in scope asking for a user fails closed.
 */
export function signedInUser(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw new ServiceError('unauthenticated', 'You are not signed in.');
  return request.sessionUser;
}

/**
 * The session token the request presents: from a non-empty `Authorization` header (then only from
 * there: a header that is not `Bearer <token>` presents none), else from the session cookie.
 */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  if (request.headers.authorization) return bearerTokenOf(request);
  const value = request.cookies[SESSION_COOKIE];
  return value || undefined;
}

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined when the header is absent,
 * empty or anything else. A request is authenticated by its header only when this is defined; the
 * CSRF check (plugins/security.ts) exempts exactly those requests.
 */
export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure when the request came over https. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    expires: expiresAt,
  });
}

/** Tells the browser to drop the session cookie. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
}

async function authPlugin(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('sessionUser', null);
  app.decorate('authenticate', async (request: FastifyRequest): Promise<SessionUser> => {
    const token = sessionTokenOf(request);
    const user = token ? await findSessionUser(app.db, token) : null;
    if (!user) throw new ServiceError('unauthenticated', 'You are not signed in.');
    return user;
  });
}

export default fp(authPlugin, { name: 'auth', dependencies: ['db'] });
