/**
 * Rate limits of the account calls. No HTTP types: plugins/rate-limits.ts builds these from the
 * configuration and the routes and hooks call them.
 *
 * - Sign-in (`SignInLimit`, docs/decisions/083): failed attempts are counted per account and
 *   address (in growing steps), per address across accounts and per account across addresses
 *   (`signInCounters`). Each attempt is counted before its password is checked and given back when
 *   it succeeds or is refused; while any counter is used up, every attempt that it covers — the
 *   right password included — is refused until that counter's window ends.
 * - Register, forgot-password and change-password count every request (`RequestLimit`,
 *   rate-limiter-flexible, docs/decisions/019): they cost an e-mail or an argon2 hash whatever their
 *   outcome; each request is counted before the work it guards.
 *
 * Counters live in the database (table `rate_limits`, the row layout of rate-limiter-flexible's
 * RateLimiterDrizzle store, docs/decisions/040), so every server instance on one database counts
 * against the same limits: two instances behind a load balancer do not double the allowed attempts
 * (issue 14). Each count is one atomic `INSERT … ON CONFLICT DO UPDATE … RETURNING`, on PGlite and
 * PostgreSQL alike.
 */
import { and, eq, gt, inArray, like, lt, or, sql, type SQL } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { RateLimitedError } from './errors.ts';

/** What a limiter counts: `points` per `durationSeconds`, under `keyPrefix`. */
export interface LimiterOptions {
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

/** Makes one counter store. */
export type LimiterFactory = (options: LimiterOptions) => RateLimiterAbstract;

/**
 * Counters in the `rate_limits` table of `db`, shared by every process on that database. The
 * library's own clean-up timer is off (it would outlive the app and query a closed database);
 * `deleteExpiredLimits` does that job.
 */
export function databaseLimiters(db: Db): LimiterFactory {
  return ({ keyPrefix, points, durationSeconds }) =>
    new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix, points, duration: durationSeconds, clearExpiredByTimeout: false });
}

/** How long a counter row is kept after its window ended before `deleteExpiredLimits` removes it (ms). */
export const EXPIRED_LIMIT_GRACE_MS = 60 * 60 * 1000;

/**
 * Deletes counter rows whose window ended more than `EXPIRED_LIMIT_GRACE_MS` before `now`.
 * @returns how many rows were deleted.
 */
export async function deleteExpiredLimits(db: Db, now: Date): Promise<number> {
  // Rows a count is writing right now are skipped (deleted next time): waiting for them while
  // holding others could deadlock with that count.
  const expired = db
    .select({ key: rateLimits.key })
    .from(rateLimits)
    .where(lt(rateLimits.expire, new Date(now.getTime() - EXPIRED_LIMIT_GRACE_MS)))
    .for('update', { skipLocked: true });
  const deleted = await db.delete(rateLimits).where(inArray(rateLimits.key, expired)).returning({ key: rateLimits.key });
  return deleted.length;
}

/** The limits, per window: see the module comment. */
export interface RateLimits {
  /** Length of a window, in ms (at least 1000). */
  windowMs: number;
  /** Failed sign-ins per client IP; requests per IP for the other limited calls. */
  ipMax: number;
  /**
   * Failed sign-ins per account from one address in a window (the middle step of `signInCounters`);
   * requests per email for register and forgot-password.
   */
  accountMax: number;
}

/** Who a sign-in attempt is about: the client IP and the account key (see `signInAccountKey`). */
export interface SignInAttempt {
  ip: string;
  account: string;
}

/**
 * The key that counts failed sign-ins of one account: the user's id when the identifier names a
 * user (so 'demo' and 'demo@example.com' share one counter), else the identifier as typed, trimmed
 * and lower-cased (unknown names are counted too, the same way, so a block reveals nothing).
 */
export function signInAccountKey(userId: string | null, identifier: string): string {
  return userId ? `user:${userId}` : `name:${identifier.trim().toLowerCase()}`;
}

/** One counter's rule: at most `points` failures in a window of `durationMs` that starts at the first. */
export interface CounterRule {
  points: number;
  durationMs: number;
}

/**
 * The sign-in counters (docs/decisions/083), from the configured limits (M = `accountMax`,
 * W = `windowMs`; defaults 10 and 15 minutes):
 * - `accountAndAddress`: one account from one address, in growing steps — ⌈M/2⌉ failures per W/15
 *   (5 a minute), M per W (10 in 15 minutes), 2M per 4W (20 an hour). A prankster on the venue
 *   Wi-Fi locks only their own address out of that account; colleagues elsewhere sign in.
 * - `address`: one address across every account, `ipMax` per W (password spraying).
 * - `account`: one account from every address, 10·M per W (a guess spread over many addresses).
 */
export function signInCounters(limits: RateLimits): { accountAndAddress: CounterRule[]; address: CounterRule; account: CounterRule } {
  const { windowMs, accountMax } = limits;
  return {
    accountAndAddress: [
      { points: Math.ceil(accountMax / 2), durationMs: Math.max(1000, Math.ceil(windowMs / 15 / 1000) * 1000) },
      { points: accountMax, durationMs: windowMs },
      { points: 2 * accountMax, durationMs: 4 * windowMs },
    ],
    address: { points: limits.ipMax, durationMs: windowMs },
    account: { points: 10 * accountMax, durationMs: windowMs },
  };
}

/** Key prefixes of the sign-in counters in `rate_limits`. */
const ACCOUNT_AND_ADDRESS_PREFIX = 'sign-in-failures-account-address';
const ADDRESS_PREFIX = 'sign-in-failures-ip';
const ACCOUNT_PREFIX = 'sign-in-failures-account-all';

/** A counter row as the charge left it: its window ends at `expire`. */
interface Charged {
  key: string;
  points: number;
  expire: Date;
}

/** A counter of one attempt: its row key and its rule. */
interface Counter extends CounterRule {
  key: string;
}

/**
 * Failed sign-ins per account and address, per address and per account (docs/decisions/083), in
 * the `rate_limits` table shared by every instance on the database.
 *
 * Every attempt is counted as a failure BEFORE the password is checked (`reserve`), each step in one
 * atomic `INSERT … ON CONFLICT DO UPDATE … RETURNING` over its counters, so a burst of parallel
 * attempts is judged on the counts the burst itself makes: exactly the allowed number reach the
 * password check. An attempt refused by any counter gives back what it took from all of them (it
 * was never checked, so it neither escalates the growing waits nor fills the account's ceiling), and
 * the account-and-address step runs first, so a refused prankster never touches the other counters.
 * A success gives the failure back (`SignInReservation.succeeded`).
 */
export class SignInLimit {
  readonly #db: Db;
  readonly #rules: ReturnType<typeof signInCounters>;

  constructor(limits: RateLimits, db: Db) {
    this.#db = db;
    this.#rules = signInCounters(limits);
  }

  /**
   * Counts the attempt as a failure on every counter, unless one of them has no room left; call
   * before checking the password, so a refused attempt learns nothing.
   * @returns the reservation: call `succeeded()` when the password was right.
   * @throws RateLimitedError (429) with the time until the refusing counters' windows end.
   */
  async reserve(attempt: SignInAttempt): Promise<SignInReservation> {
    const accountAndAddress = this.#rules.accountAndAddress.map((rule, step) => ({
      ...rule,
      key: `${ACCOUNT_AND_ADDRESS_PREFIX}-${step}:${attempt.account} ${attempt.ip}`,
    }));
    const wide: Counter[] = [
      { ...this.#rules.address, key: `${ADDRESS_PREFIX}:${attempt.ip}` },
      { ...this.#rules.account, key: `${ACCOUNT_PREFIX}:${attempt.account}` },
    ];
    const first = await chargeCounters(this.#db, accountAndAddress);
    await this.#refuseWhenOver(accountAndAddress, first, first);
    const second = await chargeCounters(this.#db, wide);
    await this.#refuseWhenOver(wide, second, [...first, ...second]);
    const accountAndAddressKeys = accountAndAddress.map((counter) => counter.key);
    return {
      succeeded: async () => {
        await this.#db.delete(rateLimits).where(inArray(rateLimits.key, lockedInKeyOrder(this.#db, inArray(rateLimits.key, accountAndAddressKeys))));
        await refundCounters(this.#db, second);
      },
    };
  }

  /**
   * After a completed password reset: the account's failures, from every address, start again at 0.
   * @param account the account key (`signInAccountKey`)
   */
  async clearAccount(account: string): Promise<void> {
    const fromEveryAddress = this.#rules.accountAndAddress.map((_, step) =>
      like(rateLimits.key, `${ACCOUNT_AND_ADDRESS_PREFIX}-${step}:${escapeLike(account)} %`),
    );
    const counters = or(eq(rateLimits.key, `${ACCOUNT_PREFIX}:${account}`), ...fromEveryAddress);
    await this.#db.delete(rateLimits).where(inArray(rateLimits.key, lockedInKeyOrder(this.#db, counters)));
  }

  async #refuseWhenOver(counters: readonly Counter[], charged: readonly Charged[], toRefund: readonly Charged[]): Promise<void> {
    const now = Date.now();
    const waits = counters.flatMap((counter) => {
      const row = charged.find((candidate) => candidate.key === counter.key);
      return row && row.points > counter.points ? [row.expire.getTime() - now] : [];
    });
    if (waits.length === 0) return;
    await refundCounters(this.#db, toRefund);
    throw new RateLimitedError(Math.max(...waits));
  }
}

/** A sign-in attempt let through to the password check (`SignInLimit.reserve`). */
export interface SignInReservation {
  /** The password was right: the account-and-address failures start again at 0, the wider counters get their point back. */
  succeeded(): Promise<void>;
}

/**
 * Adds one to each counter in one statement; a counter whose window has ended starts a new one at
 * 1. Keys are sorted so concurrent statements lock shared rows in one order (no deadlock).
 * @returns the counters' rows after the count.
 */
async function chargeCounters(db: Db, counters: readonly Counter[]): Promise<Charged[]> {
  const now = new Date();
  const expired = sql`${rateLimits.expire} <= ${sql.param(now, rateLimits.expire)}`;
  const rows = [...counters]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((counter) => ({ key: counter.key, points: 1, expire: new Date(now.getTime() + counter.durationMs) }));
  const charged = await db
    .insert(rateLimits)
    .values(rows)
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        points: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.points} + 1 END`,
        expire: sql`CASE WHEN ${expired} THEN excluded.expire ELSE ${rateLimits.expire} END`,
      },
    })
    .returning({ key: rateLimits.key, points: rateLimits.points, expire: rateLimits.expire });
  return charged.map((row) => ({ key: row.key, points: row.points, expire: row.expire ?? now }));
}

/**
 * Takes one back from each charged counter, only within the window it was charged in (a refund
 * landing after its window ended must not make the next window's count negative).
 */
async function refundCounters(db: Db, charged: readonly Charged[]): Promise<void> {
  if (charged.length === 0) return;
  const sameWindow = charged.map((row) => and(eq(rateLimits.key, row.key), eq(rateLimits.expire, row.expire)));
  await db
    .update(rateLimits)
    .set({ points: sql`${rateLimits.points} - 1` })
    .where(inArray(rateLimits.key, lockedInKeyOrder(db, and(or(...sameWindow), gt(rateLimits.points, 0)))));
}

/**
 * The keys of the counter rows matching `where`, locked in key order: every statement that writes
 * several counters takes their row locks in that one order (charges insert in it too), so two of
 * them can never wait for each other (a PostgreSQL deadlock would fail a sign-in).
 */
function lockedInKeyOrder(db: Db, where: SQL | undefined) {
  return db.select({ key: rateLimits.key }).from(rateLimits).where(where).orderBy(rateLimits.key).for('update');
}

/** `text` with LIKE's wildcards and escape character escaped. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A limit on every request of a call, per key (an IP or an email). */
export class RequestLimit {
  readonly #limiter: RateLimiterAbstract;

  constructor(options: LimiterOptions, createLimiter: LimiterFactory) {
    this.#limiter = createLimiter(options);
  }

  /**
   * Counts one request for `key`.
   * @throws RateLimitedError (429) once `key` has made more than the allowed requests in the window.
   */
  async consume(key: string): Promise<void> {
    await consume(this.#limiter, key);
  }
}

/** limiter.consume, with its "over the limit" rejection (a RateLimiterRes) turned into RateLimitedError. */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw new RateLimitedError(rejection.msBeforeNext);
    throw rejection;
  }
}
