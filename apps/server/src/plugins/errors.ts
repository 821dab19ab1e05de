/**
 * The one error handler (STYLE "Errors"): every failure answers `{ code, message }` (plus `field` for
 * validation failures). 4xx carry a message meant for the caller; 5xx are logged and answered with a
 * generic message, never a stack trace or internals.
 */
import type { ApiErrorBody, ErrorCode } from '@gatecheck/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AccessRefusedError, RateLimitedError, ServiceError } from '../services/errors.ts';
import { STATUS_OF } from './error-responses.ts';

/** What a 5xx says: nothing about us. */
const INTERNAL_ERROR_MESSAGE = 'Something went wrong on the server.';

/** Error codes for the 4xx statuses Fastify and its plugins raise themselves. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'bad_request',
  415: 'bad_request',
  429: 'rate_limited',
};

async function errorsPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ServiceError) {
      // Answered as an unknown id; the operator's log says what it was (docs/decisions/086).
      if (error instanceof AccessRefusedError) request.log.warn({ userId: error.userId, ...error.resource }, 'access refused: not a member of the organization');
      if (error instanceof RateLimitedError) void reply.header('retry-after', error.retryAfterSeconds);
      return reply.status(STATUS_OF[error.code]).send({ code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const [first] = error.validation;
      const where = error.validationContext ?? 'request';
      const field = first ? [where, ...first.instancePath.split('/').filter(Boolean)].join('.') : where;
      const message = first ? `Invalid ${field}: ${first.message}` : `Invalid ${field}`;
      return reply.status(400).send({ code: 'validation_failed', message, field });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx (malformed JSON, unsupported media type, body too large, ...) say what the
      // caller did wrong and nothing about us.
      const code = CODE_OF_STATUS[status] ?? 'bad_request';
      return reply.status(status).send({ code, message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ code: 'internal_error', message: INTERNAL_ERROR_MESSAGE });
  });
}

/**
 * Answers the errors Fastify's router raises before any route or hook runs (Fastify's
 * `frameworkErrors`): a path with a malformed %-escape (`/api/users/%ZZ`, 400) or an over-long
 * path parameter (414), in our `{ code, message }` shape instead of Fastify's own body.
 * No hook has run for such a request, so the caller sets the security headers first.
 */
export function answerFrameworkError(error: FastifyError, reply: FastifyReply): void {
  const status = error.statusCode ?? 500;
  const body: ApiErrorBody =
    status >= 400 && status < 500
      ? { code: CODE_OF_STATUS[status] ?? 'bad_request', message: 'This address is not valid: check its %-escapes and length.' }
      : { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE };
  if (status >= 500) reply.log.error({ err: error }, 'request failed');
  void reply.status(status >= 400 && status < 500 ? status : 500).send(body);
}

/** Registers the error handler for the whole app. */
export default fp(errorsPlugin, { name: 'errors' });
