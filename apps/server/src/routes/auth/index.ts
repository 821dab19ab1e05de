/**
 * POST /auth/login and POST /auth/logout (SPEC §7). Login takes an email or a username in `email`,
 * always returns `token`, and with `useCookie: true` also sets the HttpOnly session cookie.
 */
import { apiPaths, LoginRequest, LoginResponse, LogoutRequest, LogoutResponse } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from '../../plugins/auth.ts';
import { ServiceError } from '../../services/errors.ts';
import { createSession, revokeSession } from '../../services/sessions.ts';
import { checkCredentials } from '../../services/users.ts';

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(apiPaths.login, { schema: { body: LoginRequest, response: { 200: LoginResponse } } }, async (request, reply) => {
    const userId = await checkCredentials(app.db, request.body.email, request.body.password);
    if (!userId) throw new ServiceError('invalid_credentials', 'Invalid email/username or password');
    const session = await createSession(app.db, userId, app.config.sessionTtlMs);
    if (request.body.useCookie) setSessionCookie(request, reply, session.token, session.expiresAt);
    return { token: session.token, expiresAt: session.expiresAt.toISOString() };
  });

  app.post(
    apiPaths.logout,
    { schema: { body: LogoutRequest, response: { 200: LogoutResponse } } },
    async (request, reply) => {
      const token = sessionTokenOf(request);
      if (token) await revokeSession(app.db, token);
      clearSessionCookie(request, reply);
      return { success: true };
    },
  );
};

export default authRoutes;
