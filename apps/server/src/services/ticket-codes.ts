/**
 * Ticket codes: the text printed in a ticket's QR code and typed at the gate. Generated codes are
 * unguessable (80 random bits); imported codes must be safe to print, scan and use as a file name
 * (`<code>.png` in a QR export).
 */
import { randomInt } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { tickets } from '../db/schema.ts';

/** Longest ticket code accepted on import, in characters (well under the contract's QR_CODE_MAX_LENGTH). */
const TICKET_CODE_MAX_LENGTH = 128;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const GENERATED_CODE_LENGTH = 16;
const SAFE_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A fresh ticket code: `GC-` and 16 base32 characters from the crypto RNG (80 bits), the same shape
 * as the demo seed's codes. No ambiguous characters (0/O, 1/I are not in the alphabet).
 */
export function generateTicketCode(): string {
  let out = 'GC-';
  for (let i = 0; i < GENERATED_CODE_LENGTH; i++) out += BASE32_ALPHABET[randomInt(BASE32_ALPHABET.length)];
  return out;
}

/**
 * Why `code` cannot be a ticket code, or null when it can: 1–128 characters, letters, digits, `.`,
 * `_` and `-`, starting with a letter or digit (no spaces: scanners trim them, and no `/`: codes
 * are file names in a QR export).
 */
export function ticketCodeProblem(code: string): string | null {
  if (code.length > TICKET_CODE_MAX_LENGTH) return `code is longer than ${TICKET_CODE_MAX_LENGTH} characters`;
  if (!SAFE_CODE.test(code)) {
    return `code "${code}" may contain only letters, digits, ".", "_" and "-", starting with a letter or digit`;
  }
  return null;
}

/**
 * The condition "this ticket's code is `code`", ignoring case: `upper(code) = upper($1)`, the
 * expression of the unique index tickets_code_upper_key, so the look-up is index-backed. A phone's
 * keyboard capitalises a typed code; codes differing only in case are the same ticket.
 */
export function ticketCodeMatches(code: string): SQL {
  return sql`upper(${tickets.code}) = upper(${code})`;
}

/** The key under which two codes are the same ticket code (case-insensitive, as the database's index). */
export function ticketCodeKey(code: string): string {
  return code.toUpperCase();
}
