/**
 * Account self-service under `/api` (SPEC §7, messages per SPEC §8): POST /auth/register,
 * /auth/change-password (bearer token or session cookie), /auth/forgot-password and
 * /auth/reset-password. Each answers `{ success, message }`; failures are `{ code, message }`.
 * Rate limits on register and forgot-password come from plugins/security.ts, the mailer from
 * plugins/mailer.ts.
 */
import {
  ApiErrorBody,
  apiPaths,
  ChangePasswordRequest,
  FlagMessageResponse,
  ForgotPasswordRequest,
  RegisterRequest,
  ResetPasswordRequest,
} from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_MESSAGES,
  changePassword,
  registerAccount,
  requestPasswordReset,
  resetPassword,
} from '../../services/accounts.ts';

const errors = { 400: ApiErrorBody, 401: ApiErrorBody, 429: ApiErrorBody };

const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    apiPaths.register,
    { schema: { body: RegisterRequest, response: { 201: FlagMessageResponse, 409: ApiErrorBody, ...errors } } },
    async (request, reply) => {
      await registerAccount(app.db, request.body);
      return reply.status(201).send({ success: true, message: ACCOUNT_MESSAGES.registered });
    },
  );

  app.post(
    apiPaths.changePassword,
    { schema: { body: ChangePasswordRequest, response: { 200: FlagMessageResponse, ...errors } } },
    async (request) => {
      const session = await app.authenticate(request);
      await changePassword(app.db, session, request.body);
      return { success: true, message: ACCOUNT_MESSAGES.passwordChanged };
    },
  );

  app.post(
    apiPaths.forgotPassword,
    { schema: { body: ForgotPasswordRequest, response: { 200: FlagMessageResponse, ...errors } } },
    async (request) => {
      await requestPasswordReset(app.db, request.body.email, { mailer: app.mailer, publicUrl: app.config.publicUrl });
      return { success: true, message: ACCOUNT_MESSAGES.resetRequested };
    },
  );

  app.post(
    apiPaths.resetPassword,
    { schema: { body: ResetPasswordRequest, response: { 200: FlagMessageResponse, ...errors } } },
    async (request) => {
      await resetPassword(app.db, request.body);
      return { success: true, message: ACCOUNT_MESSAGES.passwordReset };
    },
  );
};

export default accountRoutes;
