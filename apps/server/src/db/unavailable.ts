/**
 * Which failures mean "the database cannot serve right now" rather than "this request is wrong" or
 * "our code is wrong" (docs/decisions/103): the errors plugin answers them 503 `not_ready` with
 * `Retry-After`, so a phone decides offline and queues the scan (decision 052) and an operator
 * reads the cause once in the log instead of a 500 per request.
 */
import { DatabaseDeadlineError } from './pg-pool.ts';
import { sqlStateOf } from './transactions.ts';

/**
 * `unreachable`: no answer, no connection, the server shutting down or restarting, a standby that
 * cannot write, too many connections. `disk_full`: the database could not write for want of space
 * (SQLSTATE 53100, ENOSPC), on PostgreSQL or on the embedded database's disk. `unconfirmed`: a
 * write was sent and the database did not say in time whether it committed (`WriteUnconfirmedError`,
 * docs/decisions/134): it may have.
 */
export type DatabaseTrouble = 'unreachable' | 'disk_full' | 'unconfirmed';

/**
 * A write was sent to the database and no answer came in time (its deadline and settle grace
 * passed, or the connection broke under it): it may commit, or have committed, although the caller
 * is answered 503 (docs/decisions/134). `cause`: the database failure.
 */
export class WriteUnconfirmedError extends Error {
  constructor(cause: unknown) {
    super('The database did not confirm the write in time: it may have been saved.', { cause });
    this.name = 'WriteUnconfirmedError';
  }
}

/** Statements that write nothing by themselves: one of them unanswered leaves no commit behind. */
const NON_WRITING_STATEMENT = /^\s*(select|begin|set|show|savepoint|rollback)\b/i;

/**
 * Whether `error` (or one of its causes) leaves the outcome of a write unknown: a statement that may
 * write (or a COMMIT) was sent and got no answer before its deadline, pg's own read timeout fired,
 * or the connection broke while a statement may have been under way. False for a failure that the
 * database answered (it rolled the statement back) or that happened before anything was sent (no
 * connection, the deadline passed first). A transaction's ROLLBACK refused after its COMMIT went
 * unanswered fails with `CommitUnansweredError`, whose cause is the COMMIT's failure: true.
 */
export function isWriteOutcomeUnknown(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Object; depth += 1) {
    if (current instanceof DatabaseDeadlineError) return current.statement !== undefined && !NON_WRITING_STATEMENT.test(current.statement);
    if (current instanceof Error) {
      if (/^(Query read timeout|Connection terminated)/.test(current.message)) return true;
      const { code } = current as { code?: unknown };
      if (code === 'ECONNRESET' || code === 'EPIPE') return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** SQLSTATEs of a database that cannot serve now (PostgreSQL appendix A): classes 08, 57P, 53, and a few more. */
function troubleOfSqlState(sqlState: string): DatabaseTrouble | undefined {
  if (sqlState === '53100') return 'disk_full';
  // 08: connection exception; 57P01-57P05: shutting down, crashed, starting, idle timeouts; 53:
  // out of memory, too many connections; 57014: a statement_timeout or cancel; 25006: a standby
  // (after a failover, until the pool reaches the new primary); 58030: an I/O error (a failed sync).
  if (sqlState.startsWith('08') || sqlState.startsWith('57P') || sqlState.startsWith('53')) return 'unreachable';
  if (sqlState === '57014' || sqlState === '25006' || sqlState === '58030') return 'unreachable';
  return undefined;
}

/** pg's and pg-pool's own messages when a connection is missing, broken or too slow. */
const CONNECTION_MESSAGES = /^(Query read timeout|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/** Node's error codes of a socket that could not reach or lost its peer. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * What keeps the database from serving, if `error` (or one of its causes: Drizzle wraps the
 * driver's error) says so; undefined for any other error.
 */
export function databaseTroubleOf(error: unknown): DatabaseTrouble | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Object; depth += 1) {
    if (current instanceof WriteUnconfirmedError) return 'unconfirmed';
    if (current instanceof DatabaseDeadlineError) return 'unreachable';
    if (current instanceof Error) {
      if (/No space left on device/.test(current.message)) return 'disk_full';
      if (CONNECTION_MESSAGES.test(current.message)) return 'unreachable';
      const { code, severity } = current as { code?: unknown; severity?: unknown };
      if (typeof code === 'string' && SOCKET_CODES.has(code)) return 'unreachable';
      // The embedded database after a PANIC (a WAL file it could not write): it refuses every
      // statement until it is opened again.
      if (severity === 'PANIC') return 'unreachable';
    }
    current = (current as { cause?: unknown }).cause;
  }
  const sqlState = sqlStateOf(error);
  return sqlState === undefined ? undefined : troubleOfSqlState(sqlState);
}
