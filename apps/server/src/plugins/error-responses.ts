/**
 * Every error answer of the API in one list: which status each error code has, and which error
 * answers a route can give because of what it has (a body, path params, a session, a rate limit).
 * The errors plugin answers with these statuses; the OpenAPI document (plugins/openapi.ts) declares,
 * for every route, the derived answers below plus the ones its rules raise (`ruleErrors`), so a
 * client generated from the document knows every status it can get (issue 15 item 15,
 * docs/decisions/023). test/helpers/api-document.ts checks each answer of the server suite against it.
 */
import { ApiErrorBody, ErrorCode } from '@gatecheck/contract';

/** HTTP status of each error code. */
export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  unauthenticated: 401,
  device_revoked: 401,
  invalid_credentials: 401,
  forbidden: 403,
  csrf_failed: 403,
  not_found: 404,
  conflict: 409,
  check_in_changed: 409,
  confirmation_required: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  not_ready: 503,
};

/** What a route has that decides which error answers it can give. */
export interface RouteTraits {
  /** HTTP method, upper case. */
  method: string;
  /** It has path params (`/:organizationId`). */
  hasParams: boolean;
  /** It needs a session (registered in the signed-in scope, routes/signed-in.ts). */
  requiresSession: boolean;
  /** It is rate limited (plugins/security.ts). */
  isRateLimited: boolean;
  /** It needs a session and a door device may not call it (routes/device-access.ts, docs/decisions/107). */
  isClosedToDevices: boolean;
}

/** One error answer every route with a trait can give: the status, the codes, why. */
interface DerivedError {
  status: number;
  codes: readonly ErrorCode[];
  description: string;
  appliesTo(route: RouteTraits): boolean;
}

const hasBody = (route: RouteTraits): boolean => route.method === 'POST';

/** The error answers derived from a route's traits (the shared list of issue 15 item 15). */
const DERIVED_ERRORS: readonly DerivedError[] = [
  {
    status: 400,
    codes: ['bad_request', 'validation_failed'],
    description: 'The request is malformed, or a field is invalid (`validation_failed` names it in `field`, e.g. `body.email`).',
    appliesTo: (route) => hasBody(route) || route.hasParams,
  },
  {
    status: 401,
    codes: ['unauthenticated', 'device_revoked'],
    description:
      'No live session: sign in and send the bearer token or the session cookie. `device_revoked`: this door device was removed by an admin (docs/decisions/108).',
    appliesTo: (route) => route.requiresSession,
  },
  {
    status: 403,
    codes: ['forbidden'],
    description: 'A door device asked for something other than scanning its event (docs/decisions/107).',
    appliesTo: (route) => route.isClosedToDevices,
  },
  {
    status: 403,
    codes: ['csrf_failed'],
    description: 'A browser request from a site that is not allowed (Origin or Referer).',
    appliesTo: hasBody,
  },
  {
    status: 404,
    codes: ['not_found'],
    description: 'Nothing exists under this id.',
    appliesTo: (route) => route.hasParams,
  },
  {
    status: 414,
    codes: ['bad_request'],
    description: 'A path parameter is over 100 characters.',
    appliesTo: (route) => route.hasParams,
  },
  {
    status: 413,
    codes: ['payload_too_large'],
    description: 'The body is over 64 KiB.',
    appliesTo: hasBody,
  },
  {
    status: 415,
    codes: ['bad_request'],
    description: 'The body is not application/json.',
    appliesTo: hasBody,
  },
  {
    status: 429,
    codes: ['rate_limited'],
    description: 'Too many attempts; `Retry-After` says how many seconds to wait.',
    appliesTo: (route) => route.isRateLimited,
  },
  {
    status: 503,
    codes: ['not_ready'],
    description: 'The database does not answer or its disk is full: nothing was saved, unless the message says a write was sent and not confirmed in time (it may have been saved; a retry with the same scanId counts it once); `Retry-After` says when to try again.',
    appliesTo: () => true,
  },
  {
    status: 500,
    codes: ['internal_error'],
    description: 'The server failed; the body says nothing more.',
    appliesTo: () => true,
  },
];

/** Codes only the framework, the hooks and the error handler give, never a route's rules. */
const DERIVED_ONLY_CODES: readonly ErrorCode[] = ['unauthenticated', 'device_revoked', 'csrf_failed', 'payload_too_large', 'rate_limited', 'internal_error'];

/**
 * The response schemas of the error answers a route's rules raise (beyond the derived ones), for
 * its `schema.response`: `ruleErrors('forbidden', 'not_found')` → `{ 403: ApiErrorBody, 404: ApiErrorBody }`.
 */
export function ruleErrors(...codes: ErrorCode[]): Record<number, typeof ApiErrorBody> {
  return Object.fromEntries(codes.map((code) => [STATUS_OF[code], ApiErrorBody]));
}

/** An error answer as the OpenAPI document declares it (the body schema is the contract's ApiErrorBody). */
export interface DocumentedError {
  description: string;
  content: { 'application/json': { schema: typeof ApiErrorBody } };
}

/**
 * Every error answer of a route for its OpenAPI document: the derived ones for `route`, and
 * `declaredStatuses` (the error statuses in its `schema.response`, from `ruleErrors`), each
 * described by the error codes it carries. Keyed by status.
 */
export function documentedErrors(route: RouteTraits, declaredStatuses: readonly number[]): Record<number, DocumentedError> {
  const reasons = new Map<number, string[]>();
  const add = (status: number, text: string) => reasons.set(status, [...(reasons.get(status) ?? []), text]);
  for (const derived of DERIVED_ERRORS) {
    if (derived.appliesTo(route)) add(derived.status, `${derived.codes.map((code) => `\`${code}\``).join(' or ')}: ${derived.description}`);
  }
  for (const status of declaredStatuses) {
    const derivedCodes = DERIVED_ERRORS.filter((derived) => derived.status === status && derived.appliesTo(route)).flatMap((derived) => derived.codes);
    const ruleCodes = ErrorCode.options
      .filter((code) => STATUS_OF[code] === status && !derivedCodes.includes(code) && !DERIVED_ONLY_CODES.includes(code))
      .map((code) => `\`${code}\``);
    if (ruleCodes.length > 0) add(status, `${ruleCodes.join(' or ')}: refused by the rules of this call (the message says why).`);
  }
  return Object.fromEntries(
    [...reasons].map(([status, texts]) => [status, { description: texts.join(' '), content: { 'application/json': { schema: ApiErrorBody } } }]),
  );
}
