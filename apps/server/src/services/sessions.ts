/**
 * Sign-in sessions (docs/decisions/003). A session token is 32 random bytes, base64url (43 chars);
 * the database keeps only its SHA-256 hash (hex), so a leaked database does not leak live sessions.
 */
import { hash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { type BatchSize, byPosition, coalescedStatement, type KeyColumn, keysTable } from '../db/coalesce.ts';
import { devicePrincipals, devices, sessions, users } from '../db/schema.ts';

/** SHA-256 of `token` (UTF-8) as 64 hex characters; also used for password-reset tokens. One call, no Hash object (every signed-in request hashes its token). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** A fresh random token: 32 bytes, base64url. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A created session: the token to hand to the client (shown once) and when it expires. */
export interface NewSession {
  token: string;
  expiresAt: Date;
}

/** Starts a session for `userId` lasting `ttlMs` milliseconds. */
export async function createSession(db: DbOrTx, userId: string, ttlMs: number): Promise<NewSession> {
  const token = generateToken();
  const expiresAt = new Date(Date.now() + ttlMs);
  await db.insert(sessions).values({ tokenHash: hashToken(token), userId, expiresAt });
  return { token, expiresAt };
}

/**
 * The door device a session acts for (docs/decisions/107): its event, organization and name, when
 * it was revoked (null: active; docs/decisions/108) and when it was last seen (ms precision).
 */
export interface SessionDevice {
  id: string;
  eventId: string;
  organizationId: string;
  name: string;
  /** The one check-in list of its event it scans (null: every list; docs/decisions/116). */
  checkInListId: string | null;
  revokedAt: Date | null;
  lastSeenAt: Date | null;
}

/** The signed-in user behind a session; `device` when the user is a door device's (or one of its shifts). */
export interface SessionUser {
  sessionId: string;
  userId: string;
  displayName: string;
  device: SessionDevice | null;
}

/** The key of a session look-up: the token's hash. */
interface SessionKey {
  tokenHash: string;
}

const SESSION_KEY: readonly KeyColumn<SessionKey>[] = [['token_hash', 'text', 'tokenHash']];

/**
 * The session look-up of every signed-in request, for one token hash or a batch of them (db/coalesce.ts
 * `keysTable`): one row per live session, with its key's 1-based position. Built once per database
 * and size (a named prepared statement on PostgreSQL).
 */
function prepareSessionUsers(db: DbOrTx, size: BatchSize) {
  return db
    .select({
      position: sql<number>`r.position`.mapWith(Number),
      sessionId: sessions.id,
      userId: users.id,
      displayName: users.displayName,
      deviceId: devices.id,
      deviceEventId: devices.eventId,
      deviceOrganizationId: devices.organizationId,
      deviceName: devices.name,
      deviceCheckInListId: devices.checkInListId,
      deviceRevokedAt: devices.revokedAt,
      deviceLastSeenAt: devices.lastSeenAt,
    })
    .from(keysTable(SESSION_KEY, size))
    .innerJoin(sessions, and(sql`${sessions.tokenHash} = r.token_hash`, isNull(sessions.revokedAt), gt(sessions.expiresAt, sql.placeholder('now'))))
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(devicePrincipals, eq(devicePrincipals.userId, users.id))
    .leftJoin(devices, eq(devices.id, devicePrincipals.deviceId))
    .prepare(`gatecheck_session_users_${size}`);
}

/** The look-ups of concurrent requests, coalesced into one statement under load (db/coalesce.ts). */
const sessionUsers = coalescedStatement(SESSION_KEY, prepareSessionUsers, async (keys, lookUp) =>
  byPosition(await lookUp(keys, { now: new Date() }), keys.length).map((row) =>
    row
      ? {
          sessionId: row.sessionId,
          userId: row.userId,
          displayName: row.displayName,
          device:
            row.deviceId && row.deviceEventId && row.deviceOrganizationId
              ? {
                  id: row.deviceId,
                  eventId: row.deviceEventId,
                  organizationId: row.deviceOrganizationId,
                  name: row.deviceName ?? '',
                  checkInListId: row.deviceCheckInListId,
                  revokedAt: toDate(row.deviceRevokedAt),
                  lastSeenAt: toDate(row.deviceLastSeenAt),
                }
              : null,
        }
      : null,
  ),
);

/** A timestamp as a driver gives it (a Date, or text from a raw batch) as a Date; null stays null. */
function toDate(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}

/**
 * Finds the live session (not revoked, not expired) for `token`.
 * @returns the session's user, or null for an unknown, revoked or expired token.
 */
export async function findSessionUser(db: DbOrTx, token: string): Promise<SessionUser | null> {
  return sessionUsers(db)({ tokenHash: hashToken(token) });
}

/** Revokes the session for `token`, if it is live. Unknown tokens are ignored. */
export async function revokeSession(db: DbOrTx, token: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)));
}
