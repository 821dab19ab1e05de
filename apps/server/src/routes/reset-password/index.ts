/**
 * The page the mailed password-reset link opens (docs/decisions/014), outside `/api`:
 * - `GET /reset-password?token=…` renders the new-password form (the token in a hidden field), or a
 *   page saying the link is incomplete, invalid or expired.
 * - `POST /reset-password` (an HTML form, application/x-www-form-urlencoded — parsed only by this
 *   plugin) runs the same reset as `POST /api/auth/reset-password` and renders the outcome in plain
 *   words with a link to sign in.
 * The secret, single-use token is what protects the form against cross-site requests; the origin
 * check of plugins/security.ts passes a same-origin form post. Pages are never cached.
 */
import { ResetPasswordRequest } from '@gatecheck/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { ACCOUNT_MESSAGES, isResetTokenLive, RESET_PASSWORD_PAGE_PATH, resetPassword } from '../../services/accounts.ts';
import { ServiceError } from '../../services/errors.ts';
import { renderResetForm, renderResetOutcome } from './pages.ts';

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

const ResetPageQuery = z.object({ token: ResetPasswordRequest.shape.token });
/** The form's fields; anything missing reads as empty (the page then says what is wrong). */
const ResetForm = z.object({
  token: z.string().catch(''),
  newPassword: z.string().catch(''),
  confirmPassword: z.string().catch(''),
});

const resetPasswordPageRoutes: FastifyPluginAsync = async (app) => {
  // Scoped to this plugin (not wrapped in fastify-plugin): the API stays JSON-only.
  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });

  app.get(RESET_PASSWORD_PAGE_PATH, async (request, reply) => {
    const query = ResetPageQuery.safeParse(request.query);
    if (!query.success) return sendPage(reply, 400, failure(ACCOUNT_MESSAGES.resetLinkIncomplete));
    if (!(await isResetTokenLive(app.db, query.data.token))) {
      return sendPage(reply, 400, failure(ACCOUNT_MESSAGES.invalidResetToken));
    }
    return sendPage(reply, 200, renderResetForm({ action: RESET_PASSWORD_PAGE_PATH, token: query.data.token }));
  });

  app.post(RESET_PASSWORD_PAGE_PATH, async (request, reply) => {
    const form = ResetForm.parse(request.body ?? {});
    const retry = (error: string) => sendPage(reply, 400, renderResetForm({ action: RESET_PASSWORD_PAGE_PATH, token: form.token, error }));
    const parsed = ResetPasswordRequest.safeParse({ token: form.token, newPassword: form.newPassword });
    if (!parsed.success) {
      const tokenIssue = parsed.error.issues.some((issue) => issue.path[0] === 'token');
      if (tokenIssue) return sendPage(reply, 400, failure(ACCOUNT_MESSAGES.resetLinkIncomplete));
      return retry(parsed.error.issues[0]?.message ?? 'Choose another password.');
    }
    if (form.newPassword !== form.confirmPassword) return retry(ACCOUNT_MESSAGES.passwordsDiffer);
    try {
      await resetPassword(app.db, parsed.data);
    } catch (error) {
      if (error instanceof ServiceError) return sendPage(reply, 400, failure(error.message));
      throw error;
    }
    return sendPage(
      reply,
      200,
      renderResetOutcome({ heading: ACCOUNT_MESSAGES.passwordReset, message: 'You can now sign in with your new password.' }),
    );
  });
};

function failure(message: string): string {
  return renderResetOutcome({ heading: 'Password not changed', message });
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

export default resetPasswordPageRoutes;
