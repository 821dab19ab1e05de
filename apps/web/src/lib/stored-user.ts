/**
 * The saved user of SPEC §3 (key 'user'), including the bearer token from login. Read by the session
 * check and by the api-client (for the bearer token); written at login; deleted at logout and when
 * the session check fails (SPEC §4).
 */
import { User } from './entities.ts';
import { readJson, removeItem, storageKeys, writeJson } from './storage.ts';

/** The saved user, or null when none is stored (or the stored value is unreadable). */
export function readStoredUser(): Promise<User | null> {
  return readJson(storageKeys.user, User);
}

/** Saves the user (with its token) for the next start. */
export function writeStoredUser(user: User): Promise<void> {
  return writeJson(storageKeys.user, user);
}

/** Deletes the saved user. */
export function removeStoredUser(): Promise<void> {
  return removeItem(storageKeys.user);
}

/** The stored bearer token, or null. */
export async function readStoredToken(): Promise<string | null> {
  const user = await readStoredUser();
  return user?.token ?? null;
}
