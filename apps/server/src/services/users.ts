/**
 * User accounts: creation (the one rule for sign-up, the admin CLI and any management screen),
 * look-up by e-mail or username, sign-in credentials and the SPEC §3 profile (GET /users/me).
 */
import type { UserMe } from '@gatecheck/contract';
import { eq, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { ServiceError } from './errors.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { signInAccountKey, type SignInLimit } from './rate-limits.ts';

/** What is needed to create an account. `country` is an ISO 3166 alpha-2 code or ''. */
export interface NewUser {
  displayName: string;
  username: string;
  email: string;
  password: string;
  country?: string;
}

/**
 * Inserts an account with an argon2id password hash; email and username keep their case but are
 * unique case-insensitively. For a new account from outside (sign-up, admin CLI) use
 * `createAccount`, which answers a taken name clearly; this insert is for seeds and fixtures.
 * @returns the new user's id.
 * @throws the database's unique-violation error (code 23505) when the email or username is taken.
 */
export async function createUser(db: DbOrTx, user: NewUser): Promise<string> {
  const passwordHash = await hashPassword(user.password);
  const [row] = await db
    .insert(users)
    .values({
      displayName: user.displayName,
      username: user.username,
      email: user.email,
      country: user.country ?? '',
      passwordHash,
    })
    .returning({ id: users.id });
  if (!row) throw new Error('insert into users returned no row');
  return row.id;
}

/** SPEC §8's answers to a sign-up whose e-mail or username is taken. */
export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists.';
export const USERNAME_TAKEN_MESSAGE = 'This username is already taken.';

/**
 * A new account's e-mail or username is already another account's (compared case-insensitively):
 * a ServiceError `conflict` (409) with SPEC §8's words, naming the request field (`body.email`);
 * `takenField` says which, so a caller with other words (the admin CLI) can say it its way.
 */
export class AccountTakenError extends ServiceError {
  readonly takenField: 'email' | 'username';

  constructor(field: 'email' | 'username') {
    super('conflict', field === 'email' ? EMAIL_TAKEN_MESSAGE : USERNAME_TAKEN_MESSAGE, `body.${field}`);
    this.name = 'AccountTakenError';
    this.takenField = field;
  }
}

/**
 * Creates an account (`createUser`) after checking that its e-mail and username are free. Two
 * creations of the same name at once both pass the check; the unique index then decides, and the
 * loser gets the same AccountTakenError as a later caller would, never the database's error.
 * Not inside a transaction: the failed insert would abort it.
 * @returns the new user's id.
 * @throws AccountTakenError (e-mail checked first) when the e-mail or username is taken.
 */
export async function createAccount(db: Db, user: NewUser): Promise<string> {
  await assertAvailable(db, user.email, user.username);
  try {
    return await createUser(db, user);
  } catch (error) {
    if (isUniqueViolation(error)) {
      await assertAvailable(db, user.email, user.username);
      throw new AccountTakenError('email');
    }
    throw error;
  }
}

/** @throws AccountTakenError when `email` or `username` is another account's (case-insensitive). */
async function assertAvailable(db: DbOrTx, email: string, username: string): Promise<void> {
  const taken = await db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(or(eq(sql`lower(${users.email})`, email.toLowerCase()), eq(sql`lower(${users.username})`, username.toLowerCase())))
    .limit(2);
  if (taken.some((row) => row.email.toLowerCase() === email.toLowerCase())) throw new AccountTakenError('email');
  if (taken.length > 0) throw new AccountTakenError('username');
}

/** Whether `error` (or an error it wraps, as Drizzle does) is PostgreSQL's unique_violation (23505). */
function isUniqueViolation(error: unknown): boolean {
  for (let current = error; typeof current === 'object' && current !== null; ) {
    if ('code' in current && current.code === '23505') return true;
    current = 'cause' in current ? current.cause : undefined;
  }
  return false;
}

/** A user as the admin CLI names them. */
export interface UserSummary {
  id: string;
  email: string;
  username: string;
  displayName: string;
}

/**
 * The user whose email or username is `identifier` (case-insensitive; as `findUserByIdentifier`).
 * @throws ServiceError `not_found`.
 */
export async function findUser(db: DbOrTx, identifier: string): Promise<UserSummary> {
  const match = await findUserByIdentifier(db, identifier);
  const [user] = match
    ? await db
        .select({ id: users.id, email: users.email, username: users.username, displayName: users.displayName })
        .from(users)
        .where(eq(users.id, match.id))
    : [];
  if (!user) throw new ServiceError('not_found', `No user with email or username "${identifier}"`);
  return user;
}

/**
 * Finds the user whose email or username equals `identifier` (case-insensitive) — SPEC §7: the
 * login `email` field holds either.
 */
export async function findUserByIdentifier(db: DbOrTx, identifier: string) {
  const needle = identifier.trim().toLowerCase();
  const rows = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(or(eq(sql`lower(${users.email})`, needle), eq(sql`lower(${users.username})`, needle)))
    .limit(2);
  // An email that equals another account's username (or the reverse) is ambiguous: prefer the email match.
  if (rows.length > 1) {
    const byEmail = await db
      .select({ id: users.id, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(sql`lower(${users.email})`, needle))
      .limit(1);
    return byEmail[0] ?? null;
  }
  return rows[0] ?? null;
}

/**
 * Checks sign-in credentials. Unknown identifiers take as long as wrong passwords.
 * @returns the user's id, or null when the identifier or password is wrong.
 */
export async function checkCredentials(db: DbOrTx, identifier: string, password: string): Promise<string | null> {
  const user = await findUserByIdentifier(db, identifier);
  const isValid = await verifyPassword(user?.passwordHash ?? null, password);
  return isValid && user ? user.id : null;
}

/** A sign-in attempt: the login body's `email` (an email or a username, SPEC §7), the password, the client IP. */
export interface SignInRequest {
  identifier: string;
  password: string;
  ip: string;
}

/**
 * POST /auth/login's rule (docs/decisions/083): the attempt is counted against the account (resolved
 * from the identifier, so its email and username share one counter) from this address, the address
 * and the account before the password is checked, and refused at once when any of them is used up;
 * a right password gives the count back. Unknown identifiers take as long as wrong passwords and are
 * counted by their text.
 * @returns the user's id.
 * @throws RateLimitedError (429) while blocked; ServiceError `invalid_credentials` (401) for a wrong
 *   identifier or password.
 */
export async function signIn(db: DbOrTx, limit: SignInLimit, request: SignInRequest): Promise<string> {
  const user = await findUserByIdentifier(db, request.identifier);
  const reservation = await limit.reserve({ ip: request.ip, account: signInAccountKey(user?.id ?? null, request.identifier) });
  const isValid = await verifyPassword(user?.passwordHash ?? null, request.password);
  if (!isValid || !user) throw new ServiceError('invalid_credentials', 'Invalid email/username or password');
  // The password was right: a count that cannot be given back now (a database hiccup) only leaves
  // one attempt counted until its window ends, and must not fail a correct sign-in.
  await reservation.succeeded().catch(() => undefined);
  return user.id;
}

/** The SPEC §3 server user record of `userId`, or null when the account no longer exists. */
export async function getUserMe(db: DbOrTx, userId: string): Promise<UserMe | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row) return null;
  return {
    id: row.id,
    displayName: row.displayName,
    username: row.username,
    email: row.email,
    country: row.country,
    createdAt: row.createdAt.toISOString(),
    settings: {
      emailNotifications: row.emailNotifications,
      smsNotifications: row.smsNotifications,
      marketingEmails: row.marketingEmails,
      eventReminders: row.eventReminders,
    },
  };
}
