/**
 * Rate limits of the account calls (docs/decisions/019), on rate-limiter-flexible. No HTTP types:
 * plugins/rate-limits.ts builds these from the configuration and the routes and hooks call them.
 *
 * - Sign-in follows the library's "login endpoint protection" recipe: only FAILED attempts count,
 *   per account (`accountMax` in a row; a success starts the account again at 0) and per client IP
 *   (`ipMax` per window, across every identifier). While either is used up, every attempt —
 *   the right password included — is refused until the window ends.
 * - Register, forgot-password and change-password count every request (`RequestLimit`): they cost
 *   an e-mail or an argon2 hash whatever their outcome.
 *
 * Counters live in the database (table `rate_limits`, rate-limiter-flexible's RateLimiterDrizzle
 * store, docs/decisions/040), so every server instance on one database counts against the same
 * limits: two instances behind a load balancer do not double the allowed attempts (issue 14). Each
 * count is one atomic `INSERT … ON CONFLICT DO UPDATE … RETURNING`, on PGlite and PostgreSQL alike.
 */
import { lt } from 'drizzle-orm';
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
  const deleted = await db
    .delete(rateLimits)
    .where(lt(rateLimits.expire, new Date(now.getTime() - EXPIRED_LIMIT_GRACE_MS)))
    .returning({ key: rateLimits.key });
  return deleted.length;
}

/** The limits, per window: see the module comment. */
export interface RateLimits {
  /** Length of a window, in ms (at least 1000). */
  windowMs: number;
  /** Failed sign-ins per client IP; requests per IP for the other limited calls. */
  ipMax: number;
  /** Failed sign-ins in a row per account; requests per email for register and forgot-password. */
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

/** Failed sign-ins per account and per IP (docs/decisions/019). */
export class SignInLimit {
  readonly #byAccount: RateLimiterAbstract;
  readonly #byIp: RateLimiterAbstract;

  constructor(limits: RateLimits, createLimiter: LimiterFactory) {
    const durationSeconds = Math.ceil(limits.windowMs / 1000);
    this.#byAccount = createLimiter({ keyPrefix: 'sign-in-failures-account', points: limits.accountMax, durationSeconds });
    this.#byIp = createLimiter({ keyPrefix: 'sign-in-failures-ip', points: limits.ipMax, durationSeconds });
  }

  /**
   * Refuses the attempt when the account or the IP has used up its failures in this window.
   * Call before checking the password, so a blocked attempt learns nothing.
   * @throws RateLimitedError (429) with the time until the later of the two windows ends.
   */
  async assertAllowed(attempt: SignInAttempt): Promise<void> {
    const [account, ip] = await Promise.all([this.#byAccount.get(attempt.account), this.#byIp.get(attempt.ip)]);
    const blocked = [
      isUsedUp(account, this.#byAccount.points) ? account : null,
      isUsedUp(ip, this.#byIp.points) ? ip : null,
    ].filter((result) => result !== null);
    if (blocked.length > 0) throw new RateLimitedError(Math.max(...blocked.map((result) => result.msBeforeNext)));
  }

  /**
   * Counts a wrong password (or unknown identifier) against the account and the IP.
   * @throws RateLimitedError when parallel attempts pushed a counter past its limit meanwhile.
   */
  async recordFailure(attempt: SignInAttempt): Promise<void> {
    await Promise.all([consume(this.#byAccount, attempt.account), consume(this.#byIp, attempt.ip)]);
  }

  /** A successful sign-in: the account's failures start again at 0 (the IP's count stays). */
  async recordSuccess(attempt: Pick<SignInAttempt, 'account'>): Promise<void> {
    await this.#byAccount.delete(attempt.account);
  }
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

function isUsedUp(result: RateLimiterRes | null, points: number): result is RateLimiterRes {
  return result !== null && result.consumedPoints >= points && result.msBeforeNext > 0;
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
