/**
 * The signing private keys at rest (docs/decisions/089): each event's Ed25519 private key is stored
 * encrypted with AES-256-GCM (node:crypto) under a secret that is not in the database, so a copy of
 * the database (a backup, a dump, a read-only leak) does not let anyone sign tickets.
 *
 * The secret is `SIGNING_KEY_SECRET` (config.ts). Without it, on the embedded database, the server
 * generates one the first time and keeps it in `DATA_DIR/signing-key-secret` (mode 0600), next to
 * the database files: it protects a copy of the database, not a copy of the whole DATA_DIR. With
 * DATABASE_URL and no secret there is nothing to keep it in that every instance shares, so signing
 * is refused with a message saying to set it (verifying needs only public keys and goes on).
 *
 * Stored form: `enc1.<iv>.<ciphertext and tag>` (base64url, 12-byte IV, 16-byte tag), the additional
 * data `<eventId>|<keyId>`, so a ciphertext moved to another key's row does not open. A value
 * without the prefix is a key stored in clear by an older server: `sealClearSigningKeys` encrypts
 * those at start.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, notLike } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { DbOrTx } from '../db/client.ts';
import { eventSigningKeys } from '../db/schema.ts';

/** What encrypts and decrypts private keys: the secret, or why there is none. */
export type SigningKeyVault = { secret: Buffer } | { missing: string };

/** Where the embedded database's generated secret is kept, inside DATA_DIR. */
export const SIGNING_KEY_SECRET_FILE = 'signing-key-secret';

const PREFIX = 'enc1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The vault of `config`: `SIGNING_KEY_SECRET`; else, on the embedded database, the secret kept in
 * DATA_DIR (created on first use); else none (signing refused).
 * @throws Error when the kept secret file exists but is not 32 bytes of base64url.
 */
export async function openSigningKeyVault(config: Pick<Config, 'signingKeySecret' | 'databaseUrl' | 'dataDir'>): Promise<SigningKeyVault> {
  if (config.signingKeySecret) return { secret: config.signingKeySecret };
  if (config.databaseUrl !== undefined) {
    return { missing: 'Signing tickets needs SIGNING_KEY_SECRET (32 random bytes in base64: openssl rand -base64 32) when the database is PostgreSQL; see docs/decisions/089.' };
  }
  const file = path.join(config.dataDir, SIGNING_KEY_SECRET_FILE);
  if (existsSync(file)) {
    const secret = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
    if (secret.length !== 32) throw new Error(`${file} does not hold a 32-byte key; restore it from a backup of DATA_DIR`);
    return { secret };
  }
  const secret = randomBytes(32);
  await mkdir(config.dataDir, { recursive: true });
  // `wx`: two processes starting on one DATA_DIR never overwrite each other's secret.
  await writeFile(file, `${secret.toString('base64url')}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  await chmod(file, 0o600);
  return openSigningKeyVault(config);
}

/** Thrown when a private key is needed and the vault has no secret (`missing` says what to set). */
export class SigningKeySecretMissing extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeySecretMissing';
  }
}

function secretOf(vault: SigningKeyVault): Buffer {
  if ('missing' in vault) throw new SigningKeySecretMissing(vault.missing);
  return vault.secret;
}

/**
 * Encrypts a private key (`plain`, PKCS#8 base64url) of key `keyId` of event `eventId` for storage.
 * @throws SigningKeySecretMissing without a secret.
 */
export function sealPrivateKey(vault: SigningKeyVault, owner: { eventId: string; keyId: string }, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secretOf(vault), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(`${owner.eventId}|${owner.keyId}`));
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}.${iv.toString('base64url')}.${data.toString('base64url')}`;
}

/**
 * The private key (PKCS#8 base64url) of a stored value; a value in clear (older server) as it is.
 * @throws SigningKeySecretMissing without a secret; Error when the value does not open with this
 *   secret (another secret, or the value was altered or moved to another key's row).
 */
export function openPrivateKey(vault: SigningKeyVault, owner: { eventId: string; keyId: string }, stored: string): string {
  if (!isSealed(stored)) return stored;
  const [, iv = '', data = ''] = stored.split('.');
  const bytes = Buffer.from(data, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', secretOf(vault), Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(`${owner.eventId}|${owner.keyId}`));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(`The signing key ${owner.keyId} does not open with this SIGNING_KEY_SECRET (was the secret changed?)`);
  }
}

/** Whether a stored private key is encrypted (else it is in clear, from an older server). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(`${PREFIX}.`);
}

/**
 * Encrypts every private key still stored in clear (written before decision 089). Each row is
 * updated only if it still holds the clear value it was read with, so instances doing this at once
 * never encrypt twice. Without a secret, nothing happens.
 * @returns how many keys were encrypted.
 */
export async function sealClearSigningKeys(db: DbOrTx, vault: SigningKeyVault): Promise<number> {
  if ('missing' in vault) return 0;
  const clear = await db
    .select({ id: eventSigningKeys.id, eventId: eventSigningKeys.eventId, keyId: eventSigningKeys.keyId, privateKey: eventSigningKeys.privateKey })
    .from(eventSigningKeys)
    .where(notLike(eventSigningKeys.privateKey, `${PREFIX}.%`));
  let sealed = 0;
  for (const row of clear) {
    const updated = await db
      .update(eventSigningKeys)
      .set({ privateKey: sealPrivateKey(vault, row, row.privateKey) })
      .where(and(eq(eventSigningKeys.id, row.id), eq(eventSigningKeys.privateKey, row.privateKey)))
      .returning({ id: eventSigningKeys.id });
    sealed += updated.length;
  }
  return sealed;
}
