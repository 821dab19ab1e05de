/**
 * Signed tickets on the device (issue 12 item 6, docs/decisions/043): the event's public keys from
 * GET /events/{eventId}/signing-keys, kept per event in IndexedDB, and the Ed25519 check of a
 * `GC1.…` text — WebCrypto where the platform has Ed25519 (the contract's `verifySignedTicket`),
 * @noble/ed25519 where it does not (older Android WebViews, Safari before 17).
 */
import { fromBase64Url } from '@gatecheck/contract/bytes';
import { EventSigningKeys, verifySignedTicket, type EventSigningKey, type ParsedSignedTicket } from '@gatecheck/contract/signed-ticket';
import { copySigningKeys } from './door-list-copy.ts';
import type { OfflineDb } from './offline-db.ts';

type KeyPart = Pick<EventSigningKey, 'keyId' | 'publicKey'>;

/** Downloads an event's keys. @throws the transport's error (api-client's ApiError). */
export type FetchSigningKeys = (eventId: string) => Promise<unknown>;

/** The keys kept for `eventId` ([] when none or unreadable). */
export async function readSigningKeys(db: OfflineDb, eventId: string): Promise<EventSigningKey[]> {
  const parsed = EventSigningKeys.safeParse(await db.get('signingKeys', eventId));
  return parsed.success && parsed.data.eventId === eventId ? parsed.data.keys : [];
}

/**
 * Downloads and keeps `eventId`'s keys; on a failed or malformed download the kept ones stay.
 * Returns the keys now kept. Never throws for the download; throws when IndexedDB fails.
 */
export async function syncSigningKeys(db: OfflineDb, eventId: string, fetchKeys: FetchSigningKeys): Promise<EventSigningKey[]> {
  let body: unknown;
  try {
    body = await fetchKeys(eventId);
  } catch {
    return readSigningKeys(db, eventId);
  }
  const parsed = EventSigningKeys.safeParse(body);
  if (!parsed.success || parsed.data.eventId !== eventId) return readSigningKeys(db, eventId);
  await db.put('signingKeys', parsed.data, eventId);
  // On the phone, also in the app's files (door-list-copy.ts), when they changed.
  void copySigningKeys(parsed.data);
  return parsed.data.keys;
}

let webCryptoEd25519: Promise<boolean> | null = null;

/** Whether this platform's WebCrypto verifies Ed25519 (checked once, with RFC 8032's TEST 1 key). */
export function hasWebCryptoEd25519(): Promise<boolean> {
  webCryptoEd25519 ??= (async () => {
    try {
      const key = await crypto.subtle.importKey('raw', fromBase64Url(RFC8032_TEST1_PUBLIC_KEY) as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, ['verify']);
      return key.type === 'public';
    } catch {
      return false;
    }
  })();
  return webCryptoEd25519;
}

/**
 * Whether `ticket`'s signature verifies under the key of `keys` its payload names.
 * @param options.engine 'auto' (default): WebCrypto when it has Ed25519, else @noble/ed25519;
 *   'noble' forces the fallback (tests of older WebViews).
 * False for an unknown key id or a malformed key; never throws.
 */
export async function verifyTicketSignature(ticket: ParsedSignedTicket, keys: readonly KeyPart[], options: { engine?: 'auto' | 'noble' } = {}): Promise<boolean> {
  if (options.engine !== 'noble' && (await hasWebCryptoEd25519())) return verifySignedTicket(ticket, keys);
  const key = keys.find((candidate) => candidate.keyId === ticket.keyId);
  if (!key) return false;
  try {
    // Loaded only on platforms without WebCrypto Ed25519: the others never download it.
    const { verifyAsync } = await import('@noble/ed25519');
    return await verifyAsync(ticket.signature, ticket.signedBytes, fromBase64Url(key.publicKey));
  } catch {
    return false;
  }
}

/** RFC 8032 §7.1 TEST 1 public key (base64url), only to probe the platform. */
const RFC8032_TEST1_PUBLIC_KEY = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';
