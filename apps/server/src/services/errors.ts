/**
 * Errors the rules raise when the caller may not or cannot do something. They carry a contract
 * `ErrorCode`; the errors plugin turns them into `{ code, message }` with the matching HTTP status.
 */
import type { ErrorCode } from '@gatecheck/contract';

/** A failure that is the caller's fault (unknown id, no permission, ...); its message is shown to the client. */
export class ServiceError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` has the shape of our database ids (UUID); anything else cannot exist. */
export function isId(id: string): boolean {
  return UUID_PATTERN.test(id);
}
