/**
 * Errors the rules raise when the caller may not or cannot do something. They carry a contract
 * `ErrorCode`; the errors plugin turns them into `{ code, message }` with the matching HTTP status.
 */
import type { ErrorCode } from '@gatecheck/contract';
import { constraintOf, sqlStateOf } from '../db/transactions.ts';

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

/** The foreign keys by which a row names a check-in list (check-ins, their counters and places, devices). */
const LIST_FOREIGN_KEYS: ReadonlySet<string> = new Set([
  'check_ins_check_in_list_fk',
  'check_in_type_counts_check_in_list_fk',
  'check_in_arrivals_check_in_list_fk',
  'check_in_list_slots_list_fk',
  'devices_check_in_list_fk',
  'device_enrollments_check_in_list_fk',
  'device_list_history_check_in_list_fk',
]);

/**
 * What a write is answered whose row names a check-in list deleted under it (docs/decisions/151): a
 * check-in (verify, by hand, offline) or a device's list read while the list was there and written
 * after a delete that had passed its check committed; the database's foreign key refused it (SQLSTATE
 * 23503), and the statement or transaction wrote nothing. The same 400 as a call naming a list that
 * is not there, naming `checkInListId`, so a phone goes back to its list step. Undefined for any
 * other error. A delete refused by these keys is answered by `deleteCheckInList` itself (409) and
 * never reaches here. (Kept beside `ServiceError` so the errors plugin needs no service module.)
 */
export function deletedListRefusal(error: unknown): ServiceError | undefined {
  if (sqlStateOf(error) !== '23503') return undefined;
  const constraint = constraintOf(error);
  if (constraint === undefined || !LIST_FOREIGN_KEYS.has(constraint)) return undefined;
  return listDeletedMeanwhile();
}

/** The refusal of a write at a check-in list deleted since it was read: a 400 naming `checkInListId` (docs/decisions/151). */
export function listDeletedMeanwhile(): ServiceError {
  return new ServiceError('bad_request', 'This check-in list was deleted meanwhile: nothing was recorded. Choose another check-in list.', 'checkInListId');
}
