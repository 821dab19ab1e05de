/**
 * Password hashing with argon2id (@node-rs/argon2, whose default algorithm is argon2id with 19 MiB
 * memory, 2 passes, 1 lane: the OWASP minimum). Hashes are PHC strings (`$argon2id$v=19$...`).
 */
import { hash, verify } from '@node-rs/argon2';

/** Hashes `password` (any length up to the contract's PASSWORD_MAX_LENGTH) into a PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// A real hash to compare against when the account does not exist, so a wrong username costs the
// same time as a wrong password and does not reveal which accounts exist.
let dummyHash: Promise<string> | undefined;

/**
 * Checks `password` against `passwordHash`; with `passwordHash` null (no such account) it spends the
 * same time and answers false. A malformed stored hash also answers false.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  const stored = passwordHash ?? (await (dummyHash ??= hash('gatecheck-dummy-password')));
  try {
    const matches = await verify(stored, password);
    return matches && passwordHash !== null;
  } catch {
    return false;
  }
}
