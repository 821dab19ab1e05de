/**
 * Error bodies. Every non-2xx answer of the API is `{ code, message }`; a validation failure also
 * names the offending `field` (a dotted path such as `body.qrCode`). 5xx answers never carry internals.
 *
 * Written with `zod/mini` (same core as classic zod; the server's type provider and OpenAPI document
 * take either): the web app parses every error body with `ApiErrorBody` on its first load, where
 * classic zod would cost about 20 kB gzip (issue 13, docs/decisions/061).
 */
import { z } from 'zod/mini';

/** Machine-readable error codes used across the API. */
export const ErrorCode = z.enum([
  'bad_request',
  'validation_failed',
  'unauthenticated',
  'device_revoked',
  'invalid_credentials',
  'forbidden',
  'not_found',
  'conflict',
  'check_in_changed',
  'confirmation_required',
  'payload_too_large',
  'rate_limited',
  'csrf_failed',
  'internal_error',
  'not_ready',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** `{ code, message, field? }` — the body of every error response. */
export const ApiErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  field: z.optional(z.string()),
}).register(z.globalRegistry, { id: 'ApiErrorBody' });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
