/**
 * Signed tickets (issue 12 item 6, docs/decisions/043): a QR text that carries its own proof of
 * being a ticket of an event, so a device without a door list can still tell a genuine ticket of
 * this event and day from anything else.
 *
 * Format: `GC1.<payload>.<signature>`, both parts unpadded base64url. The payload is the UTF-8 text
 * `<keyId>|<eventId>|<code>|<days>` (`days`: day numbers joined by `,`, or `*` for every day of the
 * event; `|` occurs in no key id, UUID or ticket code). The signature is Ed25519 (RFC 8032) over the
 * payload's bytes exactly as encoded, by the event key `keyId` (public keys per event, more than one
 * during a rotation: GET /events/{eventId}/signing-keys). A text that is not of this form is a plain
 * code, looked up as before.
 *
 * The server only ever trusts its database: it reads the code out of a signed text, refuses a text
 * whose signature does not verify (as an unknown code), and decides on the ticket row (revocation,
 * days, check-ins). The device verifies with WebCrypto Ed25519 (`verifySignedTicket`; @noble/ed25519
 * where a WebView lacks it) and checks the event and days of the payload.
 */
import { z } from 'zod';
import { fromBase64Url, fromUtf8, subtle, toBase64Url, utf8 } from './bytes.ts';

/** The first part of a signed ticket's QR text. */
export const SIGNED_TICKET_PREFIX = 'GC1';

/** What a signed ticket says: the signing key, the event, the ticket code and its days (null = every day). */
export interface SignedTicketPayload {
  keyId: string;
  eventId: string;
  code: string;
  days: readonly number[] | null;
}

/** A parsed signed ticket: the payload, the signed bytes and the signature (64 bytes). */
export interface ParsedSignedTicket extends SignedTicketPayload {
  signedBytes: Uint8Array;
  signature: Uint8Array;
}

/** One public key of an event: `publicKey` is the raw 32-byte Ed25519 key, base64url. */
export const EventSigningKey = z.object({
  keyId: z.string(),
  algorithm: z.literal('Ed25519'),
  publicKey: z.string(),
  createdAt: z.string(),
  retiredAt: z.string().nullable(),
}).meta({ id: 'EventSigningKey' });
export type EventSigningKey = z.infer<typeof EventSigningKey>;

/** GET /events/{eventId}/signing-keys: every key of the event, newest first (retired ones too). */
export const EventSigningKeys = z.object({
  eventId: z.string(),
  keys: z.array(EventSigningKey),
}).meta({ id: 'EventSigningKeys' });
export type EventSigningKeys = z.infer<typeof EventSigningKeys>;

const SIGNED_TEXT = /^GC1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{86})$/;
const PAYLOAD = /^([A-Za-z0-9_-]{1,32})\|([0-9a-fA-F-]{36})\|([A-Za-z0-9][A-Za-z0-9._-]{0,127})\|(\*|[1-9][0-9]{0,2}(?:,[1-9][0-9]{0,2})*)$/;

/** The bytes an event key signs for `payload`. */
export function signedTicketPayloadBytes(payload: SignedTicketPayload): Uint8Array {
  const days = payload.days === null ? '*' : payload.days.join(',');
  return utf8(`${payload.keyId}|${payload.eventId}|${payload.code}|${days}`);
}

/** The QR text of a signed ticket: `GC1.` + base64url(payload bytes) + `.` + base64url(signature). */
export function formatSignedTicket(payloadBytes: Uint8Array, signature: Uint8Array): string {
  return `${SIGNED_TICKET_PREFIX}.${toBase64Url(payloadBytes)}.${toBase64Url(signature)}`;
}

/**
 * The signed ticket in `text`, or null when `text` is not one (a plain code, or a text that looks
 * signed but whose payload is not of the format). Does not check the signature.
 */
export function parseSignedTicket(text: string): ParsedSignedTicket | null {
  const match = SIGNED_TEXT.exec(text.trim());
  if (!match?.[1] || !match[2]) return null;
  let signedBytes: Uint8Array;
  let signature: Uint8Array;
  try {
    signedBytes = fromBase64Url(match[1]);
    signature = fromBase64Url(match[2]);
  } catch {
    return null;
  }
  const fields = PAYLOAD.exec(fromUtf8(signedBytes));
  if (!fields?.[1] || !fields[2] || !fields[3] || !fields[4] || signature.length !== 64) return null;
  const days = fields[4] === '*' ? null : fields[4].split(',').map(Number);
  return { keyId: fields[1], eventId: fields[2].toLowerCase(), code: fields[3], days, signedBytes, signature };
}

/** The ticket code a scanned text stands for: the payload's code for a signed text, else the text. */
export function ticketCodeOfQrText(text: string): string {
  return parseSignedTicket(text)?.code ?? text;
}

/**
 * Whether `ticket`'s signature verifies under the key of `keys` with its key id (WebCrypto
 * Ed25519). False when no key has that id or the key is not a valid Ed25519 public key.
 */
export async function verifySignedTicket(ticket: ParsedSignedTicket, keys: readonly Pick<EventSigningKey, 'keyId' | 'publicKey'>[]): Promise<boolean> {
  const key = keys.find((candidate) => candidate.keyId === ticket.keyId);
  if (!key) return false;
  try {
    const imported = await subtle().importKey('raw', fromBase64Url(key.publicKey), { name: 'Ed25519' }, false, ['verify']);
    return await subtle().verify({ name: 'Ed25519' }, imported, ticket.signature, ticket.signedBytes);
  } catch {
    return false;
  }
}

/**
 * The key id of a raw Ed25519 public key: the first 12 characters of base64url(SHA-256(key)).
 */
export async function signingKeyId(publicKey: Uint8Array): Promise<string> {
  const digest = await subtle().digest('SHA-256', publicKey);
  return toBase64Url(new Uint8Array(digest)).slice(0, 12);
}
