/**
 * Bytes, base64url and WebCrypto access shared by the door list and signed tickets (issue 12). The
 * contract is built without DOM types, so the part of WebCrypto used is typed here; it is the
 * standard `globalThis.crypto` of Node 24, browsers and WebViews.
 */
/** The part of WebCrypto used here (the contract is built without DOM types). */
export interface MinimalSubtle {
  digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
  importKey(format: 'raw', key: Uint8Array, algorithm: string | object, extractable: boolean, usages: string[]): Promise<unknown>;
  deriveKey(algorithm: object, base: unknown, derived: object, extractable: boolean, usages: string[]): Promise<unknown>;
  encrypt(algorithm: object, key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  decrypt(algorithm: object, key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: string | object, key: unknown, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
  sign(algorithm: string | object, key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
}
export interface MinimalCrypto {
  subtle: MinimalSubtle;
  getRandomValues(array: Uint8Array): Uint8Array;
}
declare const TextDecoder: { new (): { decode(data: ArrayBuffer | Uint8Array): string } };
declare const TextEncoder: { new (): { encode(text: string): Uint8Array } };

/**
 * The platform's WebCrypto.
 * @throws Error when there is none (an insecure browser context).
 */
export function globalCrypto(): MinimalCrypto {
  const found = (globalThis as { crypto?: MinimalCrypto }).crypto;
  if (!found?.subtle) throw new Error('WebCrypto (crypto.subtle) is not available');
  return found;
}
/** `globalCrypto().subtle`. */
export function subtle(): MinimalSubtle {
  return globalCrypto().subtle;
}
/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Bytes as unpadded base64url (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0;
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    const n = (a << 16) | (b << 8) | c;
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < chars; j++) out += BASE64URL[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

/**
 * Unpadded (or padded) base64url text as bytes.
 * @throws Error on a character outside the base64url alphabet or an impossible length.
 */
export function fromBase64Url(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '');
  if (clean.length % 4 === 1) throw new Error('not base64url: impossible length');
  const out = new Uint8Array(Math.floor((clean.length * 6) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of clean) {
    const value = BASE64URL.indexOf(char);
    if (value < 0) throw new Error('not base64url: bad character');
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}

/** UTF-8 text of `bytes`. */
export function fromUtf8(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
