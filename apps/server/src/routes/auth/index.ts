/**
 * POST /auth/login and POST /auth/logout (SPEC §7). Login takes an email or a username in `email`,
 * always returns `token`, and with `useCookie: true` also sets the HttpOnly session cookie. Failed
 * sign-ins are rate limited per account and address, per address and per account, counted before the
 * password is checked (docs/decisions/083).
 */
import { apiPaths, LoginRequest, LoginResponse, LogoutRequest, LogoutResponse } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { createSession, revokeSession } from '../../services/sessions.ts';
import { signIn } from '../../services/users.ts';

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(apiPaths.login, { schema: { operationId: 'login', body: LoginRequest, response: { 200: LoginResponse, ...ruleErrors('invalid_credentials') } } }, async (request, reply) => {
    const { email: identifier, password } = request.body;
    const userId = await signIn(app.db, app.signInLimit, { identifier, password, ip: request.ip });
    const session = await createSession(app.db, userId, app.config.sessionTtlMs);
    if (request.body.useCookie) setSessionCookie(request, reply, session.token, session.expiresAt);
    return { token: session.token, expiresAt: session.expiresAt.toISOString() };
  });

  app.post(
    apiPaths.logout,
    { schema: { operationId: 'logout', body: LogoutRequest, response: { 200: LogoutResponse } } },
    async (request, reply) => {
      const token = sessionTokenOf(request);
      if (token) await revokeSession(app.db, token);
      clearSessionCookie(request, reply);
      return { success: true };
    },
  );
};

export default authRoutes;
