/**
 * The one error handler (STYLE "Errors"): every failure answers `{ code, message }` (plus `field` for
 * validation failures). 4xx carry a message meant for the caller; 5xx are logged and answered with a
 * generic message, never a stack trace or internals. A database that cannot serve (unreachable, disk
 * full: db/unavailable.ts) is a 503 `not_ready` with `Retry-After`, its cause logged once per outage
 * and its end once (docs/decisions/103).
 */
import { API_PREFIX, apiPaths, type ApiErrorBody, type ErrorCode } from '@gatecheck/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { databaseTroubleOf, type DatabaseTrouble } from '../db/unavailable.ts';
import { AccessRefusedError, deletedListRefusal, RateLimitedError, ServiceError } from '../services/errors.ts';
import { STATUS_OF } from './error-responses.ts';

/**
 * What a request answered 503 because the database cannot serve says, and the `Retry-After` it
 * carries (seconds), by cause (db/unavailable.ts, docs/decisions/103). `unreachable` and `disk_full`:
 * nothing was saved (the database refused, or nothing that writes was sent). `unconfirmed`: a
 * scan's write was sent and not answered in time, so it may have been saved (docs/decisions/134).
 */
export const DATABASE_TROUBLE_ANSWERS: Record<DatabaseTrouble, { message: string; retryAfterSeconds: number }> = {
  unreachable: { message: 'The database does not answer: nothing was saved. Try again in a few seconds.', retryAfterSeconds: 5 },
  disk_full: { message: "The server's disk is full: nothing was saved. Try again once space is freed.", retryAfterSeconds: 30 },
  unconfirmed: { message: 'The database did not confirm in time whether this scan was saved: it may have been. Try again in a few seconds; a retry with the same scanId counts it once.', retryAfterSeconds: 5 },
};

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

/** How long after its last 503 a database outage counts as over (ms). */
const OUTAGE_QUIET_MS = 5_000;

/** The health probe: it answers without the database, so its 200 says nothing about it. */
const HEALTH_URL = `${API_PREFIX}${apiPaths.health}`;

async function errorsPlugin(app: FastifyInstance): Promise<void> {
  /** The database trouble under way (since its first 503), so its cause is logged once, not per request. */
  let outage: { trouble: DatabaseTrouble; sinceMs: number; lastMs: number; refused: number } | undefined;
  // A success of a request that needed the database, OUTAGE_QUIET_MS after the last 503, ends the
  // outage, in one line. (Right after the database returns, connections that died with it still
  // fail one request each: that is the same outage.)
  app.addHook('onResponse', async (request, reply) => {
    if (!outage || reply.statusCode >= 400 || !request.url.startsWith(API_PREFIX) || request.routeOptions.url === HEALTH_URL) return;
    if (performance.now() - outage.lastMs < OUTAGE_QUIET_MS) return;
    const seconds = Math.round((performance.now() - outage.sinceMs) / 1000);
    request.log.info({ trouble: outage.trouble, seconds, refused: outage.refused }, `database answers again after ${seconds} s (${outage.refused} requests answered 503 meanwhile)`);
    outage = undefined;
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const trouble = databaseTroubleOf(error);
    if (trouble) {
      if (outage) {
        outage.refused += 1;
        outage.lastMs = performance.now();
      } else {
        outage = { trouble, sinceMs: performance.now(), lastMs: performance.now(), refused: 1 };
        request.log.error({ err: error, trouble }, `database unavailable (${trouble}): answering 503 until it answers again`);
      }
      const answer = DATABASE_TROUBLE_ANSWERS[trouble];
      void reply.header('retry-after', answer.retryAfterSeconds);
      return reply.status(503).send({ code: 'not_ready', message: answer.message });
    }
    // A check-in or device written at a list deleted under it: the 400 of a list not there (docs/decisions/151).
    const listRefusal = deletedListRefusal(error);
    if (listRefusal) return reply.status(STATUS_OF[listRefusal.code]).send({ code: listRefusal.code, message: listRefusal.message, field: listRefusal.field });
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
