/**
 * Every transaction of the server goes through `inTransaction` (issue 14 item 6, docs/decisions/042):
 * a transaction that fails with a serialization failure (SQLSTATE 40001) or a deadlock (40P01) is
 * rolled back and run again from the start, with exponential backoff and jitter. PostgreSQL at READ
 * COMMITTED rarely returns these (a deadlock between two writers); CockroachDB (SERIALIZABLE by
 * default) and YugabyteDB return 40001 as a normal answer to contention and expect the client to
 * retry. So the same code runs on all of them.
 *
 * The callback may run more than once: it must do nothing but database work on `tx` (no mail sent, no
 * file written) before it returns. A single statement outside a transaction (its own implicit
 * transaction) goes through `retrying`, the same loop without BEGIN/COMMIT.
 */
import type { Db, Tx } from './client.ts';

/** SQLSTATE codes after which a transaction is retried as a whole. */
export const RETRYABLE_SQLSTATES: ReadonlySet<string> = new Set(['40001', '40P01']);

/** How `inTransaction` retries; the defaults suit a request handler. */
export interface RetryOptions {
  /** Runs in total, the first included (default 5). */
  maxAttempts?: number;
  /** Backoff before the second run, in ms (default 10); doubles each time, with full jitter. */
  baseDelayMs?: number;
  /** Longest single backoff, in ms (default 500). */
  maxDelayMs?: number;
  /** Called before each retry with the attempt just failed (1-based), its SQLSTATE and the wait (ms). */
  onRetry?: (info: { attempt: number; sqlState: string; delayMs: number }) => void;
}

/**
 * The SQLSTATE of a database error: `code` of the error or of one of its causes (Drizzle wraps the
 * driver's error in a DrizzleQueryError whose `cause` carries it), or undefined.
 */
export function sqlStateOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Object; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The constraint a database error names (PostgreSQL's `constraint_name` field, as node-postgres and
 * PGlite both expose it as `constraint`), on the error or one of its causes; undefined when none.
 */
export function constraintOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Object; depth += 1) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string' && constraint !== '') return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Runs `work` in one transaction of `db` and returns its result, retrying the whole transaction on
 * SQLSTATE 40001 / 40P01 (see the module comment) up to `maxAttempts` runs.
 * @throws whatever `work` or the commit throws when it is not retryable, or the last retryable
 *   error once the attempts are used up.
 */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  return retrying(() => db.transaction(work), options);
}

/**
 * Runs `work` — one transaction: a `db.transaction`, or a single statement, which PostgreSQL runs as
 * a transaction of its own — and runs it again on SQLSTATE 40001 / 40P01, with the backoff of
 * `options`, up to `maxAttempts` runs. The hot check-in path uses it for its one-statement write
 * (services/check-ins/write.ts), which needs no BEGIN/COMMIT round trips (docs/decisions/057).
 * @throws as `inTransaction`.
 */
export async function retrying<T>(work: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 10;
  const maxDelayMs = options.maxDelayMs ?? 500;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const sqlState = sqlStateOf(error);
      if (sqlState === undefined || !RETRYABLE_SQLSTATES.has(sqlState) || attempt >= maxAttempts) throw error;
      const delayMs = Math.round(Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));
      options.onRetry?.({ attempt, sqlState, delayMs });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
