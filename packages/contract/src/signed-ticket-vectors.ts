/**
 * Test vectors for device implementations (WebCrypto Ed25519 or @noble/ed25519). The key pair is
 * RFC 8032 §7.1 TEST 1 (secret key 9d61b19d…7f60). The expected QR text was produced with Node's
 * crypto.sign(null, payload, key) — Ed25519 signatures are deterministic, so any correct signer
 * gives the same text; apps/server/test/signed-tickets.test.ts checks the server's signer against it, and
 * packages/contract/src/signed-ticket.test.ts the format and WebCrypto's verification (issue 12).
 */
export const SIGNED_TICKET_VECTOR = {
  secretKeyHex: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
  publicKey: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  keyId: 'If4x36FUomFi',
  eventId: '6f0c2a4e-8d1b-4c7a-9e3f-2b5d7a9c1e04',
  code: 'GC-ABCDEFGHJKMNPQRS',
  days: [1, 3],
  qrText:
    'GC1.SWY0eDM2RlVvbUZpfDZmMGMyYTRlLThkMWItNGM3YS05ZTNmLTJiNWQ3YTljMWUwNHxHQy1BQkNERUZHSEpLTU5QUVJTfDEsMw.F2vqVaKEI8S5P2UKBC5F-Y8Vt3yiuL7JSCpQWEoPc_XxKPLvFJsom4HCrCTaEj6KYlCbCC5VElGaCTi7-gKUDA',
} as const;
