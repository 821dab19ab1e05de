/**
 * The `pg` pool the server runs on PostgreSQL, made to live through a database that goes away
 * (stopped, crashed, failed over, or behind a network that black-holes its packets) and to come back
 * by itself when it returns (docs/decisions/103):
 *
 * - **Connecting** gives up after `DATABASE_CONNECT_TIMEOUT_MS` (pg's `connectionTimeoutMillis`,
 *   which also bounds the wait for a free connection), instead of waiting for ever on a host that
 *   accepts and never answers. TCP keepalive is on, so the kernel finds a dead peer on a quiet
 *   connection.
 * - **Every statement** has a read timeout (pg's `query_timeout`): the time left of the caller's
 *   deadline (`withDatabaseDeadline`, e.g. a verify's, inside decision 052's 3 s cut-over; plus a
 *   settle grace for a write sent before it, `withSettleGrace`, docs/decisions/134) or else
 *   `DATABASE_QUERY_TIMEOUT_MS`. When the deadline passes first (still waiting for a connection),
 *   the call rejects with `DatabaseDeadlineError` at once and nothing is sent: under a deadline
 *   `pool.query` checks a connection out before it sends.
 * - **A connection that failed** (a statement timed out or the connection broke) is destroyed and
 *   never handed out again; the same for a connection that reached a standby (SQLSTATE 25006, after
 *   a failover) or a server shutting down. `pool.query` already does that; a client checked out for a transaction
 *   (Drizzle's `db.transaction`) is released with the error here, because Drizzle releases it
 *   without one, or not at all when its BEGIN fails, and a connection whose statement never
 *   answered would otherwise go back to the pool and hang the next request that takes it.
 * - **A COMMIT sent and not answered** is remembered for its checkout: the statements sent after it
 *   (Drizzle's ROLLBACK) fail with `CommitUnansweredError`, which carries the COMMIT's failure, so
 *   the caller can still tell that the transaction may have committed (docs/decisions/134).
 *
 * Migrations do not go through this pool (client.ts): a long `CREATE INDEX` must not time out.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** How long getting a connection may take, free or new (ms). */
export const DATABASE_CONNECT_TIMEOUT_MS = 5_000;
/** How long a statement outside any deadline may go unanswered before its connection is dropped (ms). */
export const DATABASE_QUERY_TIMEOUT_MS = 30_000;
/** Idle time before the first TCP keepalive probe (ms). */
const KEEPALIVE_INITIAL_DELAY_MS = 10_000;

/**
 * The database did not answer before the deadline of the work that asked (`withDatabaseDeadline`).
 * `statement`: the text of the statement that had been sent and got no answer in time (its outcome
 * is unknown: it may still run and commit inside the database); undefined when nothing was sent (the
 * deadline passed first, or while waiting for a connection, which is then handed back unused).
 */
export class DatabaseDeadlineError extends Error {
  readonly statement: string | undefined;
  constructor(statement?: string) {
    super('The database did not answer before the deadline.');
    this.name = 'DatabaseDeadlineError';
    this.statement = statement;
  }
}

/**
 * A statement refused because the COMMIT of the same checkout got no answer (its connection is lost):
 * the transaction may have committed. Drizzle's `transaction` sends ROLLBACK after a failed COMMIT
 * and throws the ROLLBACK's error instead of the COMMIT's; this error carries the COMMIT's as its
 * `cause`, so that whoever classifies the failure (`isWriteOutcomeUnknown`, docs/decisions/134)
 * still sees that a COMMIT went unanswered. Nothing is sent.
 */
export class CommitUnansweredError extends Error {
  constructor(commitError: unknown) {
    super('The COMMIT before this statement got no answer: the transaction may have committed. Nothing more is sent on its connection.', { cause: commitError });
    this.name = 'CommitUnansweredError';
  }
}

/** `performance.now()` by which the database work of the current async context must be answered. */
const deadlines = new AsyncLocalStorage<number>();
/** ms past the deadline a statement sent before it may still answer in (`withSettleGrace`). */
const graces = new AsyncLocalStorage<number>();
/**
 * How long after our own timer pg's `query_timeout` fires (ms): ours decides (and says which
 * statement went unanswered); pg's only frees a connection of `pool.query`'s own.
 */
const PG_READ_TIMEOUT_BACKSTOP_MS = 100;

/**
 * Runs `work` with a deadline `budgetMs` from now for every statement it sends on PostgreSQL
 * (nested deadlines keep the earlier one). On PGlite it only runs `work`. `work`'s result is
 * awaited inside the deadline: Drizzle's queries are lazy and start when awaited.
 * @returns what `work` resolves to.
 */
export function withDatabaseDeadline<T>(budgetMs: number, work: () => T | PromiseLike<T>): Promise<T> {
  const deadline = performance.now() + budgetMs;
  const outer = deadlines.getStore();
  return deadlines.run(outer === undefined ? deadline : Math.min(outer, deadline), async () => await work());
}

/**
 * Runs `work` so that a statement it sends before the current deadline may answer up to `graceMs`
 * after that deadline (a statement not yet sent at the deadline is still refused). For a write
 * whose outcome matters to the answer (verify's check-in, docs/decisions/134): a commit that
 * settles shortly after the deadline is then known, not guessed. No effect outside a deadline or
 * on PGlite.
 * @returns what `work` resolves to.
 */
export function withSettleGrace<T>(graceMs: number, work: () => T | PromiseLike<T>): Promise<T> {
  return graces.run(graceMs, async () => await work());
}

/** ms left before the current deadline (may be ≤ 0), or undefined outside any deadline. */
function remainingMs(): number | undefined {
  const deadline = deadlines.getStore();
  return deadline === undefined ? undefined : Math.floor(deadline - performance.now());
}

/**
 * Rejects with `DatabaseDeadlineError` (naming `statement`, the text sent, if any) after `ms`,
 * unless `work` settles first.
 */
function beforeDeadline<T>(work: Promise<T>, ms: number, options: { statement?: string; onLate?: (value: T) => void } = {}): Promise<T> {
  const onLate = options.onLate ?? (() => undefined);
  let timer: NodeJS.Timeout | undefined;
  let isLate = false;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      isLate = true;
      reject(new DatabaseDeadlineError(options.statement));
    }, ms);
  });
  const answered = work.then((value) => {
    if (isLate) onLate(value);
    return value;
  });
  // The loser's rejection is nobody's business once the race is decided.
  answered.catch(() => undefined);
  return Promise.race([answered, late]).finally(() => clearTimeout(timer));
}

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];

/** The SQL text of a statement config or string, for `DatabaseDeadlineError.statement`. */
function statementText(config: unknown): string {
  if (typeof config === 'string') return config;
  if (typeof config === 'object' && config !== null && 'text' in config && typeof config.text === 'string') return config.text;
  return '';
}

/**
 * A statement config (an object with `text`) with pg's read timeout: `answerWithinMs` (the time
 * left of the current deadline and its settle grace) plus a backstop, else `DATABASE_QUERY_TIMEOUT_MS`.
 */
function withReadTimeout(config: unknown, answerWithinMs: number | undefined): unknown {
  if (typeof config !== 'object' || config === null || !('text' in config)) return config;
  const readTimeoutMs = answerWithinMs === undefined ? DATABASE_QUERY_TIMEOUT_MS : Math.max(1, answerWithinMs) + PG_READ_TIMEOUT_BACKSTOP_MS;
  return { ...config, query_timeout: readTimeoutMs };
}

/** Runs `query` (a client's promise form) with the timeout and deadline of the current context. */
function queryInTime(query: (...args: QueryArgs) => unknown, args: QueryArgs): unknown {
  const [config, values, callback] = args;
  // Callback forms are pg's own (pool.query calls client.query so); only promises are ours to time.
  if (typeof values === 'function' || typeof callback === 'function') return query(...args);
  const remaining = remainingMs();
  // Past the deadline nothing more is sent.
  if (remaining !== undefined && remaining <= 0) return Promise.reject(new DatabaseDeadlineError());
  const answerWithinMs = remaining === undefined ? undefined : remaining + (graces.getStore() ?? 0);
  const running = query(withReadTimeout(config, answerWithinMs), values) as Promise<unknown>;
  return answerWithinMs === undefined ? running : beforeDeadline(running, answerWithinMs, { statement: statementText(config) });
}

/** Each pooled client's own `query` (before `guard` wrapped it), and the `release` of its current checkout. */
const ownQueries = new WeakMap<pg.PoolClient, (...args: QueryArgs) => unknown>();
const currentReleases = new WeakMap<pg.PoolClient, (error?: Error | boolean) => void>();
/** The failure of a client's COMMIT that got no answer, for its current checkout (`CommitUnansweredError`). */
const unansweredCommits = new WeakMap<pg.PoolClient, unknown>();

/** A statement that ends a transaction block by committing it. */
const COMMIT_STATEMENT = /^\s*(commit|end)\b/i;

/**
 * A client checked out of the pool, guarded: its statements are timed (`queryInTime`); a statement
 * that fails for want of an answer or a connection releases it with the error (the pool then
 * destroys it), and `release` may be called again (Drizzle does) without pg-pool's double-release
 * error. pg-pool gives the client a new `release` at each checkout; `query` is wrapped once.
 */
function guard(client: pg.PoolClient): pg.PoolClient {
  const release = client.release.bind(client);
  let isReleased = false;
  const releaseOnce = (error?: Error | boolean) => {
    if (isReleased) return;
    isReleased = true;
    release(error);
  };
  currentReleases.set(client, releaseOnce);
  unansweredCommits.delete(client);
  if (!ownQueries.has(client)) {
    const ownQuery = client.query.bind(client) as (...args: QueryArgs) => unknown;
    ownQueries.set(client, ownQuery);
    // pg-pool listens for a connection's errors only while it is idle (and in its own `query`): a
    // checked-out connection that breaks (a killed primary, HAProxy cutting its sessions) would emit
    // an 'error' nobody hears, which ends the process. Here it releases the checkout with the error.
    client.on('error', (error: Error) => currentReleases.get(client)?.(error));
    const guardedQuery = (...args: QueryArgs): unknown => {
      // After an unanswered COMMIT (the caller's ROLLBACK, typically), say so rather than only "no
      // time left" or "client closed": the answer to the caller depends on it (decision 134).
      if (unansweredCommits.has(client) && typeof args[1] !== 'function' && typeof args[2] !== 'function') {
        return Promise.reject(new CommitUnansweredError(unansweredCommits.get(client)));
      }
      const result = queryInTime(ownQuery, args);
      if (!(result instanceof Promise)) return result;
      // Chained (not a side branch) so the COMMIT is marked before its caller sees the failure.
      return result.catch((error: unknown) => {
        if (isConnectionFailure(error)) {
          if (COMMIT_STATEMENT.test(statementText(args[0])) && wasSentUnanswered(error)) unansweredCommits.set(client, error);
          currentReleases.get(client)?.(error instanceof Error ? error : new Error(String(error)));
        }
        throw error;
      });
    };
    Object.assign(client, { query: guardedQuery as pg.PoolClient['query'] });
  }
  return Object.assign(client, { release: releaseOnce });
}

/**
 * Whether `error`, a connection failure of a statement, came after the statement was sent (no
 * answer by the deadline, pg's read timeout, the connection broke under it) rather than before (the
 * deadline had passed, the client was closed): only then may the statement have taken effect.
 */
function wasSentUnanswered(error: unknown): boolean {
  if (error instanceof DatabaseDeadlineError) return error.statement !== undefined;
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  return /^(Query read timeout|Connection terminated)/.test(error.message) || code === 'ECONNRESET' || code === 'EPIPE';
}

/**
 * A failure of the connection rather than of the statement: no answer in time, or the connection
 * broke or is closed (the statement's outcome is unknown and the connection unusable); or the
 * connection is to a server that can no longer serve us: SQLSTATE 25006 (a standby: the primary
 * this connection was opened to was demoted, or the connection reached a standby during a failover),
 * class 08 (connection exception) or 57P (shutting down, crash recovery). Such a connection must
 * not be handed out again: a new one, through HAProxy, reaches the new primary.
 */
function isConnectionFailure(error: unknown): boolean {
  if (error instanceof DatabaseDeadlineError) return true;
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && (code === '25006' || code.startsWith('08') || code.startsWith('57P'))) return true;
  return /^(Query read timeout|Connection terminated|Client has encountered a connection error|Client was closed)/.test(error.message) || 'errno' in error;
}

/**
 * A `pg.Pool` for `connectionString` with `max` connections, with the timeouts and the guard of the
 * module comment. Drizzle takes it as it takes a plain pool (it is one, seen through a Proxy).
 */
export function createGuardedPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
  });
  const query = pool.query.bind(pool) as (...args: QueryArgs) => unknown;
  const connect = pool.connect.bind(pool);
  const guardedConnect = (...args: unknown[]): unknown => {
    if (args.length > 0) return (connect as (...callbackArgs: unknown[]) => unknown)(...args);
    const remaining = remainingMs();
    if (remaining !== undefined && remaining <= 0) return Promise.reject(new DatabaseDeadlineError());
    const connecting = connect().then(guard);
    // A connection that arrives after the deadline is handed back unused.
    return remaining === undefined ? connecting : beforeDeadline(connecting, remaining, { onLate: (client) => client.release() });
  };
  /**
   * `pool.query` under a deadline: on a connection checked out in time, so that a statement is
   * never sent after its deadline (pg-pool's own `query` sends it whenever a connection frees up,
   * although its caller was answered long before). Outside a deadline: pg-pool's `query`.
   */
  const pooledQuery = async (...args: QueryArgs): Promise<unknown> => {
    if (remainingMs() === undefined) return queryInTime(query, args);
    const client = (await guardedConnect()) as pg.PoolClient;
    try {
      return await (client.query as (...queryArgs: QueryArgs) => Promise<unknown>)(...args);
    } finally {
      // After a connection failure the guard has released it with the error already.
      client.release();
    }
  };
  return new Proxy(pool, {
    get(target, property, receiver) {
      if (property === 'query') return (...args: QueryArgs) => (typeof args[1] === 'function' || typeof args[2] === 'function' ? query(...args) : pooledQuery(...args));
      if (property === 'connect') return guardedConnect;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
