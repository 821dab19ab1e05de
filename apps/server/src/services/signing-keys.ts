/**
 * Signed tickets on the server (issue 12 item 6, docs/decisions/043): each event's Ed25519 key
 * pairs (node:crypto), signing a ticket's QR text in the contract's format
 * (`GC1.<payload>.<signature>`, packages/contract/src/signed-ticket.ts), and reading a scanned
 * text back into a ticket code for verify and the offline upload.
 *
 * The database stays the only truth: a signed text only says which code was scanned. Its signature
 * must verify under a key of the event its payload names (else the scan is an unknown code); then
 * the code is looked up and decided like a plain one (revocation, days, check-ins from the rows).
 *
 * Private keys are stored encrypted (signing-key-vault.ts, docs/decisions/089). A revoked key
 * (`revokeSigningKey`) vouches for nothing: its signatures are unknown codes here, it leaves the
 * public key list, and door lists name it so devices refuse it too.
 */
import {
  type EventSigningKey,
  formatSignedTicket,
  parseSignedTicket,
  signedTicketPayloadBytes,
  signingKeyId,
  toBase64Url,
  verifySignedTicket,
} from '@gatecheck/contract';
import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { eventSigningKeys } from '../db/schema.ts';
import { isId, ServiceError } from './errors.ts';
import { openPrivateKey, sealPrivateKey, type SigningKeyVault } from './signing-key-vault.ts';

type KeyRow = typeof eventSigningKeys.$inferSelect;

/** A fresh Ed25519 key pair as stored: raw public key and PKCS#8 private key, both base64url, and its key id. */
export async function generateSigningKey(): Promise<{ keyId: string; publicKey: string; privateKey: string }> {
  const pair = generateKeyPairSync('ed25519');
  // SPKI DER of an Ed25519 key is a fixed 12-byte header and the raw 32-byte key.
  const raw = new Uint8Array(pair.publicKey.export({ format: 'der', type: 'spki' }).subarray(12));
  const pkcs8 = new Uint8Array(pair.privateKey.export({ format: 'der', type: 'pkcs8' }));
  return { keyId: await signingKeyId(raw), publicKey: toBase64Url(raw), privateKey: toBase64Url(pkcs8) };
}

/** A key ready to sign with: its id and its private key in clear (PKCS#8, base64url), never stored so. */
export interface SigningKey {
  keyId: string;
  privateKey: string;
}

/**
 * The active signing key of `eventId`, created on first use, opened with `vault` to sign with. Two
 * callers at once get the same key (the partial unique index allows one active key per event; the
 * loser reads the winner's).
 * @throws SigningKeySecretMissing when `vault` has no secret.
 */
export async function activeSigningKey(db: DbOrTx, vault: SigningKeyVault, eventId: string): Promise<SigningKey> {
  const existing = await findActive(db, eventId);
  if (existing) return opened(vault, existing);
  const fresh = await generateSigningKey();
  await db
    .insert(eventSigningKeys)
    .values({ eventId, keyId: fresh.keyId, publicKey: fresh.publicKey, privateKey: sealPrivateKey(vault, { eventId, keyId: fresh.keyId }, fresh.privateKey) })
    .onConflictDoNothing({ target: eventSigningKeys.eventId, where: isNull(eventSigningKeys.retiredAt) });
  const created = await findActive(db, eventId);
  if (!created) throw new Error('no active signing key after creating one');
  return opened(vault, created);
}

function opened(vault: SigningKeyVault, row: KeyRow): SigningKey {
  return { keyId: row.keyId, privateKey: openPrivateKey(vault, row, row.privateKey) };
}

/**
 * Rotation: retires the active key of `eventId` (it still verifies the tickets it signed, until
 * revoked) and makes a new one active. Run it in a transaction.
 * @returns the new key.
 */
export async function rotateSigningKey(db: DbOrTx, vault: SigningKeyVault, eventId: string): Promise<SigningKey> {
  await db.update(eventSigningKeys).set({ retiredAt: sql`now()` }).where(and(eq(eventSigningKeys.eventId, eventId), isNull(eventSigningKeys.retiredAt)));
  return activeSigningKey(db, vault, eventId);
}

/**
 * Revokes key `keyId` of `eventId` (docs/decisions/089): tickets it signed are no longer accepted
 * (the server answers their texts as unknown codes; devices learn it from the next door list and
 * refuse them too). A revoked active key is retired as well, so the next signing makes a new one.
 * Tickets signed with it must be printed again. Revoking a revoked key changes nothing.
 * @returns when the key was revoked (now, or before).
 * @throws ServiceError `not_found` when the event has no key `keyId`.
 */
export async function revokeSigningKey(db: DbOrTx, eventId: string, keyId: string): Promise<{ revokedAt: Date; wasAlreadyRevoked: boolean }> {
  const owns = and(eq(eventSigningKeys.eventId, eventId), eq(eventSigningKeys.keyId, keyId));
  const [revoked] = await db
    .update(eventSigningKeys)
    .set({ revokedAt: sql`now()`, retiredAt: sql`coalesce(${eventSigningKeys.retiredAt}, now())` })
    .where(and(owns, isNull(eventSigningKeys.revokedAt)))
    .returning({ revokedAt: eventSigningKeys.revokedAt });
  if (revoked?.revokedAt) return { revokedAt: revoked.revokedAt, wasAlreadyRevoked: false };
  const [existing] = await db.select({ revokedAt: eventSigningKeys.revokedAt }).from(eventSigningKeys).where(owns);
  if (!existing?.revokedAt) throw new ServiceError('not_found', `Event ${eventId} has no signing key ${keyId}`);
  return { revokedAt: existing.revokedAt, wasAlreadyRevoked: true };
}

/** The key ids of `eventId`'s revoked keys, oldest first (every door list carries them). */
export async function revokedSigningKeyIds(db: DbOrTx, eventId: string): Promise<string[]> {
  const rows = await db
    .select({ keyId: eventSigningKeys.keyId })
    .from(eventSigningKeys)
    .where(and(eq(eventSigningKeys.eventId, eventId), isNotNull(eventSigningKeys.revokedAt)))
    .orderBy(eventSigningKeys.revokedAt, eventSigningKeys.keyId);
  return rows.map((row) => row.keyId);
}

/**
 * The keys of `eventId` that still vouch for tickets: the active one first (PostgreSQL sorts null
 * first when descending), then the retired ones, latest retired first; as GET
 * /events/{eventId}/signing-keys answers (public halves only). Revoked keys are left out.
 */
export async function listSigningKeys(db: DbOrTx, eventId: string): Promise<EventSigningKey[]> {
  const rows = await db
    .select()
    .from(eventSigningKeys)
    .where(and(eq(eventSigningKeys.eventId, eventId), isNull(eventSigningKeys.revokedAt)))
    .orderBy(desc(eventSigningKeys.retiredAt), desc(eventSigningKeys.createdAt));
  return rows.map((row) => ({
    keyId: row.keyId,
    algorithm: 'Ed25519' as const,
    publicKey: row.publicKey,
    createdAt: row.createdAt.toISOString(),
    retiredAt: row.retiredAt?.toISOString() ?? null,
  }));
}

/**
 * The signed QR text of a ticket (`code`, `days` null = every day) of `eventId`, under `key`
 * (default: the event's active key). Ed25519 is deterministic: the same ticket and key give the
 * same text.
 */
export async function signedQrText(db: DbOrTx, vault: SigningKeyVault, ticket: { eventId: string; code: string; days: readonly number[] | null }, key?: SigningKey): Promise<string> {
  const signer = key ?? (await activeSigningKey(db, vault, ticket.eventId));
  return signWith(signer, ticket);
}

/** A key parsed once to sign many tickets with (`signerOf`): its id and its private key as node:crypto holds it. */
export interface TicketSigner {
  keyId: string;
  privateKey: KeyObject;
}

/**
 * `key` parsed for signing: parsing PKCS#8 costs about as much as an Ed25519 signature, so a print
 * run parses its key once, not once per ticket.
 * @throws Error (node:crypto) when the private key is not PKCS#8 DER.
 */
export function signerOf(key: SigningKey): TicketSigner {
  return { keyId: key.keyId, privateKey: createPrivateKey({ key: Buffer.from(key.privateKey, 'base64url'), format: 'der', type: 'pkcs8' }) };
}

/**
 * Signs `ticket` with a given key (no database): used by `signedQrText`, the print runs (a
 * `TicketSigner`, parsed once) and the test vectors. Synchronous: one Ed25519 signature.
 */
export function signWith(key: SigningKey | TicketSigner, ticket: { eventId: string; code: string; days: readonly number[] | null }): string {
  const privateKey = typeof key.privateKey === 'string' ? signerOf({ keyId: key.keyId, privateKey: key.privateKey }).privateKey : key.privateKey;
  const payload = signedTicketPayloadBytes({ keyId: key.keyId, eventId: ticket.eventId, code: ticket.code, days: ticket.days });
  return formatSignedTicket(payload, new Uint8Array(sign(null, payload, privateKey)));
}

/**
 * The ticket code a scanned `text` stands for: `text` itself when it is not a signed text; the
 * payload's code when its signature verifies under a key of the payload's event that is not revoked;
 * null when it looks signed but does not verify (a forged or damaged text, or one signed by a revoked
 * key: an unknown code).
 */
export async function codeOfScannedText(db: DbOrTx, text: string): Promise<string | null> {
  const parsed = parseSignedTicket(text);
  if (!parsed) return text;
  if (!isId(parsed.eventId)) return null;
  const keys = await db
    .select({ keyId: eventSigningKeys.keyId, publicKey: eventSigningKeys.publicKey })
    .from(eventSigningKeys)
    .where(and(eq(eventSigningKeys.eventId, parsed.eventId), eq(eventSigningKeys.keyId, parsed.keyId), isNull(eventSigningKeys.revokedAt)));
  return (await verifySignedTicket(parsed, keys)) ? parsed.code : null;
}

async function findActive(db: DbOrTx, eventId: string): Promise<KeyRow | undefined> {
  const [row] = await db.select().from(eventSigningKeys).where(and(eq(eventSigningKeys.eventId, eventId), isNull(eventSigningKeys.retiredAt))).limit(1);
  return row;
}
