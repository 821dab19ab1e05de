/**
 * Account self-service (SPEC §7 /auth/register, /auth/change-password, /auth/forgot-password,
 * /auth/reset-password; messages per SPEC §8). No HTTP types here: the routes in routes/account call
 * these and the errors plugin turns a ServiceError into `{ code, message }`.
 *
 * Reset tokens: 32 random bytes (base64url) handed out once, in the e-mail; the database keeps only
 * their SHA-256 hash. A token works once and for PASSWORD_RESET_TTL_MS. A reset or a password change
 * ends the user's other sessions and voids their other reset tokens.
 */
import { RESET_PASSWORD_LINK, type ChangePasswordRequest, type RegisterRequest, type ResetPasswordRequest } from '@gatecheck/contract';
import { and, eq, gt, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { inTransaction } from '../db/transactions.ts';
import { passwordResetTokens, sessions, users } from '../db/schema.ts';
import { ServiceError } from './errors.ts';
import type { MailMessage, Mailer } from './mailer.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { signInAccountKey, type SignInLimit } from './rate-limits.ts';
import { generateToken, hashToken } from './sessions.ts';
import { createAccount, EMAIL_TAKEN_MESSAGE, USERNAME_TAKEN_MESSAGE } from './users.ts';

/** How long a password-reset link works: 1 hour, in ms. */
const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

/** SPEC §8 success texts and our answers, shared by routes and tests. */
export const ACCOUNT_MESSAGES = {
  registered: 'Account created. You can now sign in.',
  passwordChanged: 'Password changed successfully',
  resetRequested: 'If an account exists for that email, a reset link has been sent.',
  passwordReset: 'Password updated successfully',
  emailTaken: EMAIL_TAKEN_MESSAGE,
  usernameTaken: USERNAME_TAKEN_MESSAGE,
  wrongCurrentPassword: 'Current password is incorrect.',
  invalidResetToken: 'This reset link is invalid or has expired.',
  signUpClosed: 'Sign-up is turned off on this server. Ask your administrator for an account.',
} as const;

/** What decides whether register creates accounts: the server's ALLOW_SIGNUP setting. */
export interface SignUpPolicy {
  isSignUpAllowed: boolean;
}

/**
 * Creates an account (argon2id password, SPEC §7 fields; `name` becomes the display name), when the
 * server allows self-registration (docs/decisions/018; a staff tool keeps it off by default).
 * @throws ServiceError `forbidden` (403) when sign-up is off; `conflict` (409) when the email or
 *   username is taken, case-insensitively (AccountTakenError, also when two sign-ups race).
 */
export async function registerAccount(db: Db, request: RegisterRequest, policy: SignUpPolicy): Promise<void> {
  if (!policy.isSignUpAllowed) throw new ServiceError('forbidden', ACCOUNT_MESSAGES.signUpClosed);
  await createAccount(db, {
    displayName: request.name,
    username: request.username,
    email: request.email,
    password: request.password,
    country: request.country.toUpperCase(),
  });
}

/** The signed-in caller of change-password: the user and the session they used. */
export interface AccountSession {
  userId: string;
  sessionId: string;
}

/**
 * Replaces the caller's password after checking the current one; the caller's other sessions end
 * (the one used for this call stays signed in) and outstanding reset links stop working.
 * @throws ServiceError `bad_request` (400) when `currentPassword` is wrong — not 401, which clients
 *   read as "signed out".
 */
export async function changePassword(db: Db, session: AccountSession, request: ChangePasswordRequest): Promise<void> {
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, session.userId)).limit(1);
  if (!(await verifyPassword(user?.passwordHash ?? null, request.currentPassword))) {
    throw new ServiceError('bad_request', ACCOUNT_MESSAGES.wrongCurrentPassword);
  }
  const passwordHash = await hashPassword(request.newPassword);
  await inTransaction(db, async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, session.userId));
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, session.userId), ne(sessions.id, session.sessionId), isNull(sessions.revokedAt)));
    await voidResetTokens(tx, session.userId);
  });
}

/** What requestPasswordReset needs besides the database. */
export interface PasswordResetMail {
  mailer: Mailer;
  /** Base URL of the web app; the link is `${publicUrl}/reset-password?token=…` (its reset screen). */
  publicUrl: string;
}

/**
 * Starts a password reset for the account with `email` (case-insensitive), if there is one: stores
 * a hashed token and queues the e-mail with the link. The caller answers the same either way
 * (ACCOUNT_MESSAGES.resetRequested), and the work is the same too (docs/decisions/084): one token
 * made and hashed, one statement that finds the account and writes one row — the token's, or for an
 * unknown e-mail a row with no user whose token is never sent — and returns what the mail needs, so
 * composing the mail queries nothing. A commit that writes costs more than one that does not (a WAL
 * flush), so a row written only for real accounts told them apart by timing.
 */
export async function requestPasswordReset(db: Db, email: string, mail: PasswordResetMail): Promise<void> {
  const token = generateToken();
  const expiresAt = new Date(Date.now() + PASSWORD_RESET_TTL_MS);
  const result = await db.execute(sql`
    with account as (
      select ${users.id} as id, ${users.email} as email, ${users.displayName} as display_name
      from ${users} where lower(${users.email}) = ${email.toLowerCase()} limit 1
    )
    insert into ${passwordResetTokens} (user_id, token_hash, expires_at)
    values ((select id from account), ${hashToken(token)}, ${expiresAt.toISOString()}::timestamptz)
    returning (select email from account) as email, (select display_name from account) as display_name`);
  const [account] = rowsOf<{ email: string | null; display_name: string | null }>(result);
  if (!account?.email) return;
  const link = `${mail.publicUrl}${RESET_PASSWORD_LINK.path}?${new URLSearchParams({ [RESET_PASSWORD_LINK.tokenParam]: token }).toString()}`;
  // Composed and sent after the answer has gone out.
  const message = resetMail({ email: account.email, displayName: account.display_name ?? '' }, link);
  mail.mailer.enqueue(afterThisRequest().then(() => message));
}

function afterThisRequest(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function resetMail(user: { email: string; displayName: string }, link: string): MailMessage {
  return {
    to: user.email,
    subject: 'Reset your Gatecheck password',
    text: [
      `Hello ${user.displayName},`,
      '',
      'Someone (hopefully you) asked to reset the password of your Gatecheck account.',
      `Open this link within ${PASSWORD_RESET_TTL_MS / 60_000} minutes to choose a new password:`,
      '',
      link,
      '',
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
  };
}

/** How long a reset-token row is kept after it expired before `deleteExpiredResetTokens` removes it (ms). */
export const EXPIRED_RESET_TOKEN_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes reset-token rows (with or without a user) that expired more than
 * `EXPIRED_RESET_TOKEN_GRACE_MS` before `now`: they can never be used again.
 * @returns how many rows were deleted.
 */
export async function deleteExpiredResetTokens(db: Db, now: Date): Promise<number> {
  const deleted = await db
    .delete(passwordResetTokens)
    .where(lt(passwordResetTokens.expiresAt, new Date(now.getTime() - EXPIRED_RESET_TOKEN_GRACE_MS)))
    .returning({ id: passwordResetTokens.id });
  return deleted.length;
}

/**
 * Sets a new password with a reset token from the e-mail, uses the token up, voids the user's other
 * reset tokens and ends every session of the user. The account's failed sign-ins start again at 0
 * (`limit`): the reset proved the account is theirs, and a staff member locked out by wrong
 * passwords must not wait out the lock with the new one (on any address).
 * @throws ServiceError `bad_request` (400) for an unknown, used or expired token.
 */
export async function resetPassword(db: Db, limit: SignInLimit, request: ResetPasswordRequest): Promise<void> {
  const tokenHash = hashToken(request.token);
  const isLive = and(
    eq(passwordResetTokens.tokenHash, tokenHash),
    isNotNull(passwordResetTokens.userId),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, new Date()),
  );
  // Check first so a bad token costs no password hashing; the UPDATE below decides races.
  const [candidate] = await db.select({ id: passwordResetTokens.id }).from(passwordResetTokens).where(isLive).limit(1);
  if (!candidate) throw new ServiceError('bad_request', ACCOUNT_MESSAGES.invalidResetToken);
  const passwordHash = await hashPassword(request.newPassword);
  const userId = await inTransaction(db, async (tx) => {
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.id, candidate.id), isLive))
      .returning({ userId: passwordResetTokens.userId });
    if (!used?.userId) throw new ServiceError('bad_request', ACCOUNT_MESSAGES.invalidResetToken);
    await tx.update(users).set({ passwordHash }).where(eq(users.id, used.userId));
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, used.userId), isNull(sessions.revokedAt)));
    await voidResetTokens(tx, used.userId);
    return used.userId;
  });
  // The new password is set: a counter that cannot be cleared now only leaves the lock to run out
  // (at most the window), and the reset must still be answered as done.
  await limit.clearAccount(signInAccountKey(userId, '')).catch(() => undefined);
}

async function voidResetTokens(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
