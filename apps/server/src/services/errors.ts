/**
 * Errors the rules raise when the caller may not or cannot do something. They carry a contract
 * `ErrorCode`; the errors plugin turns them into `{ code, message }` with the matching HTTP status.
 */
import type { ErrorCode } from '@gatecheck/contract';

/** A failure that is the caller's fault (unknown id, no permission, ...); its message is shown to the client. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  /** The request field the failure is about (dotted, as a validation failure names it: `body.days.1.day`), when one is. */
  readonly field: string | undefined;

  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.field = field;
  }
}

/** What an unknown event id is answered (404 `not_found`): a non-member is answered the same. */
export function noSuchEventMessage(eventId: string): string {
  return `No event with id "${eventId}"`;
}

/** What an unknown organization id is answered (404 `not_found`): a non-member is answered the same. */
export const NO_SUCH_ORGANIZATION_MESSAGE = 'Organization not found';

/**
 * A signed-in caller who is not a member of the organization that owns the event or organization
 * they asked for. Answered exactly as an unknown id — 404 `not_found` with the same message — so the
 * answer does not tell whether the id exists (docs/decisions/086); the server's log records it as
 * an access refusal with the user's id and the resource's id (plugins/errors.ts).
 */
export class AccessRefusedError extends ServiceError {
  readonly userId: string;
  /** The id asked for: an event's or an organization's. */
  readonly resource: { eventId: string } | { organizationId: string };

  constructor(userId: string, resource: { eventId: string } | { organizationId: string }) {
    super('not_found', 'eventId' in resource ? noSuchEventMessage(resource.eventId) : NO_SUCH_ORGANIZATION_MESSAGE);
    this.name = 'AccessRefusedError';
    this.userId = userId;
    this.resource = resource;
  }
}

/**
 * Too many attempts (429 `rate_limited`): the answer carries `Retry-After: retryAfterSeconds`
 * (docs/decisions/019).
 */
export class RateLimitedError extends ServiceError {
  /** Whole seconds until the next attempt can succeed (at least 1). */
  readonly retryAfterSeconds: number;

  constructor(retryAfterMs: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super('rate_limited', `Too many attempts. Try again in ${describeSeconds(seconds)}.`);
    this.name = 'RateLimitedError';
    this.retryAfterSeconds = seconds;
  }
}

function describeSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` has the shape of our database ids (UUID); anything else cannot exist. */
export function isId(id: string): boolean {
  return UUID_PATTERN.test(id);
}
