/**
 * Accounts for the admin CLI (issue 4): create a user, find one by email or username. No CLI or HTTP types in here; failures the operator can fix throw
 * ServiceError (`not_found`, `conflict`, `bad_request`).
 */
import { eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { ServiceError } from '../errors.ts';
import { createUser, findUserByIdentifier, type NewUser } from '../users.ts';

/**
 * Creates an account (argon2id hash through services/users).
 * @returns the new user's id.
 * @throws ServiceError `conflict` naming the email or username already taken (case-insensitive).
 */
export async function createAccount(db: DbOrTx, user: NewUser): Promise<string> {
  const taken = await db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(
      or(
        eq(sql`lower(${users.email})`, user.email.toLowerCase()),
        eq(sql`lower(${users.username})`, user.username.toLowerCase()),
      ),
    );
  if (taken.some((row) => row.email.toLowerCase() === user.email.toLowerCase())) {
    throw new ServiceError('conflict', `A user with email ${user.email} already exists`);
  }
  if (taken.length > 0) throw new ServiceError('conflict', `A user with username ${user.username} already exists`);
  return createUser(db, user);
}

/** A user found by email or username. */
export interface FoundUser {
  id: string;
  email: string;
  username: string;
  displayName: string;
}

/**
 * The user whose email or username is `identifier` (case-insensitive).
 * @throws ServiceError `not_found`.
 */
export async function findUser(db: DbOrTx, identifier: string): Promise<FoundUser> {
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
