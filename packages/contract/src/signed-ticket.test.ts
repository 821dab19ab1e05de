import { describe, expect, test } from 'vitest';
import { fromBase64Url, fromUtf8, toBase64Url } from './bytes.ts';
import { doorListLookupKey } from './door-list.ts';
import {
  formatSignedTicket,
  parseSignedTicket,
  signedTicketPayloadBytes,
  signingKeyId,
  ticketCodeOfQrText,
  verifySignedTicket,
} from './signed-ticket.ts';
import { SIGNED_TICKET_VECTOR } from './signed-ticket-vectors.ts';

const V = SIGNED_TICKET_VECTOR;
const keys = [{ keyId: V.keyId, publicKey: V.publicKey }];

describe('signed ticket format', () => {
  test('the vector parses into its payload, and the payload bytes are what was signed', () => {
    const parsed = parseSignedTicket(V.qrText);
    expect(parsed).toMatchObject({ keyId: V.keyId, eventId: V.eventId, code: V.code, days: [1, 3] });
    if (!parsed) throw new Error('unreachable');
    const bytes = signedTicketPayloadBytes({ keyId: V.keyId, eventId: V.eventId, code: V.code, days: V.days });
    expect(parsed.signedBytes).toEqual(bytes);
    expect(formatSignedTicket(bytes, parsed.signature)).toBe(V.qrText);
    expect(V.qrText.length).toBeLessThan(512);
  });

  test('the key id is derived from the public key', async () => {
    expect(await signingKeyId(fromBase64Url(V.publicKey))).toBe(V.keyId);
  });

  test('every day is *', () => {
    expect(fromUtf8(signedTicketPayloadBytes({ keyId: 'k', eventId: V.eventId, code: 'A', days: null }))).toBe(`k|${V.eventId}|A|*`);
  });

  test.each([
    ['a plain code', 'GC-ABCDEFGHJKMNPQRS'],
    ['another prefix', V.qrText.replace('GC1.', 'GC2.')],
    ['a short signature', V.qrText.slice(0, -2)],
    ['a payload that is not the format', `GC1.${toBase64Url(Uint8Array.from('hello', (c) => c.charCodeAt(0)))}.${V.qrText.split('.')[2]}`],
  ])('%s is not a signed ticket (a plain code for the lookup)', (_name, text) => {
    expect(parseSignedTicket(text)).toBeNull();
    expect(ticketCodeOfQrText(text)).toBe(text);
  });

  test('the code of a signed text is its payload code; the door list looks it up like the plain code', async () => {
    expect(ticketCodeOfQrText(V.qrText)).toBe(V.code);
    expect(await doorListLookupKey(V.eventId, V.qrText)).toBe(await doorListLookupKey(V.eventId, V.code.toLowerCase()));
  });
});

describe('signature check (WebCrypto Ed25519)', () => {
  test('the vector verifies under its event key', async () => {
    const parsed = parseSignedTicket(V.qrText);
    if (!parsed) throw new Error('unreachable');
    expect(await verifySignedTicket(parsed, keys)).toBe(true);
  });

  test('a changed code or day, another key, or an unknown key id does not verify', async () => {
    const parsed = parseSignedTicket(V.qrText);
    if (!parsed) throw new Error('unreachable');
    const forged = signedTicketPayloadBytes({ keyId: V.keyId, eventId: V.eventId, code: V.code, days: [1, 2, 3] });
    const forgedTicket = parseSignedTicket(formatSignedTicket(forged, parsed.signature));
    if (!forgedTicket) throw new Error('unreachable');
    expect(await verifySignedTicket(forgedTicket, keys)).toBe(false);
    const otherKey = toBase64Url(new Uint8Array(32).fill(7));
    expect(await verifySignedTicket(parsed, [{ keyId: V.keyId, publicKey: otherKey }])).toBe(false);
    expect(await verifySignedTicket(parsed, [{ keyId: 'nope', publicKey: V.publicKey }])).toBe(false);
    expect(await verifySignedTicket(parsed, [{ keyId: V.keyId, publicKey: 'AAAA' }])).toBe(false);
  });

  test('with two keys during a rotation, the one named by the key id is used', async () => {
    const parsed = parseSignedTicket(V.qrText);
    if (!parsed) throw new Error('unreachable');
    expect(await verifySignedTicket(parsed, [{ keyId: 'newer', publicKey: toBase64Url(new Uint8Array(32).fill(9)) }, ...keys])).toBe(true);
  });
});
