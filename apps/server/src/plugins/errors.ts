/**
 * The one error handler (STYLE "Errors"): every failure answers `{ code, message }` (plus `field` for
 * validation failures). 4xx carry a message meant for the caller; 5xx are logged and answered with a
 * generic message, never a stack trace or internals.
 */
import type { ErrorCode } from '@gatecheck/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ServiceError } from '../services/errors.ts';

/** HTTP status of each error code the rules raise. */
const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  forbidden: 403,
  csrf_failed: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
};

/** Error codes for the 4xx statuses Fastify and its plugins raise themselves. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  429: 'rate_limited',
};

async function errorsPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ServiceError) {
      return reply.status(STATUS_OF[error.code]).send({ code: error.code, message: error.message });
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
    return reply.status(500).send({ code: 'internal_error', message: 'Something went wrong on the server.' });
  });
}

/** Registers the error handler for the whole app. */
export default fp(errorsPlugin, { name: 'errors' });
