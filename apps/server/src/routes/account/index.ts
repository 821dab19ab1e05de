/**
 * Account self-service under `/api` (SPEC §7, messages per SPEC §8): POST /auth/register,
 * /auth/forgot-password and /auth/reset-password (open to everyone), and /auth/change-password
 * (`changePasswordRoutes`, registered in the signed-in scope, routes/signed-in.ts). Each answers
 * `{ success, message }`; failures are `{ code, message }`.
 * GET /auth/options (not in SPEC §7) tells the sign-in screen whether to offer sign-up, which the
 * server allows only with ALLOW_SIGNUP (docs/decisions/018). Rate limits come from
 * plugins/rate-limits.ts, the mailer from plugins/mailer.ts.
 */
import {
  apiPaths,
  AuthOptionsResponse,
  ChangePasswordRequest,
  FlagMessageResponse,
  ForgotPasswordRequest,
  RegisterRequest,
  ResetPasswordRequest,
} from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import {
  ACCOUNT_MESSAGES,
  changePassword,
  deleteExpiredResetTokens,
  registerAccount,
  requestPasswordReset,
  resetPassword,
} from '../../services/accounts.ts';

/** How often long-expired reset-token rows are deleted (ms). */
const CLEAN_UP_EVERY_MS = 60 * 60 * 1000;

const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const signUpPolicy = { isSignUpAllowed: app.config.allowSignup };

  // Every forgot-password request writes a row (docs/decisions/084); expired ones go every hour
  // (every instance does it; the DELETE is idempotent).
  const cleanUp = setInterval(() => {
    deleteExpiredResetTokens(app.db, new Date()).catch((error: unknown) => app.log.warn({ err: error }, 'deleting expired reset tokens failed'));
  }, CLEAN_UP_EVERY_MS);
  cleanUp.unref();
  app.addHook('onClose', async () => clearInterval(cleanUp));

  app.get(apiPaths.authOptions, { schema: { operationId: 'getAuthOptions', response: { 200: AuthOptionsResponse } } }, async () => signUpPolicy);

  app.post(
    apiPaths.register,
    { schema: { operationId: 'register', body: RegisterRequest, response: { 201: FlagMessageResponse, ...ruleErrors('forbidden', 'conflict') } } },
    async (request, reply) => {
      await registerAccount(app.db, request.body, signUpPolicy);
      return reply.status(201).send({ success: true, message: ACCOUNT_MESSAGES.registered });
    },
  );

  app.post(
    apiPaths.forgotPassword,
    { schema: { operationId: 'forgotPassword', body: ForgotPasswordRequest, response: { 200: FlagMessageResponse } } },
    async (request) => {
      await requestPasswordReset(app.db, request.body.email, { mailer: app.mailer, publicUrl: app.config.publicUrl });
      return { success: true, message: ACCOUNT_MESSAGES.resetRequested };
    },
  );

  app.post(
    apiPaths.resetPassword,
    { schema: { operationId: 'resetPassword', body: ResetPasswordRequest, response: { 200: FlagMessageResponse } } },
    async (request) => {
      await resetPassword(app.db, app.signInLimit, request.body);
      return { success: true, message: ACCOUNT_MESSAGES.passwordReset };
    },
  );
};

export default accountRoutes;

/** POST /auth/change-password for the signed-in user (wrong current password: 400). */
export const changePasswordRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    apiPaths.changePassword,
    { schema: { operationId: 'changePassword', body: ChangePasswordRequest, response: { 200: FlagMessageResponse } } },
    async (request) => {
      await changePassword(app.db, signedInUser(request), request.body);
      return { success: true, message: ACCOUNT_MESSAGES.passwordChanged };
    },
  );
};
