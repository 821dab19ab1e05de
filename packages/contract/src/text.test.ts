import { describe, expect, test } from 'vitest';
import { LoginRequest } from './auth.ts';
import { OrganizationParams } from './organizations.ts';
import { isStorableText, MALFORMED_TEXT_MESSAGE, renderTextSafely, requestText } from './text.ts';
import { VerifyTicketRequest } from './tickets.ts';

describe('isStorableText', () => {
  test('accepts well-formed text, emoji (surrogate pairs) included', () => {
    for (const text of ['', 'GC-ABC', 'Zoë', '😀👍🏽', '\uFEFF\u202E']) expect(isStorableText(text), text).toBe(true);
  });

  test('refuses lone surrogates and NUL characters', () => {
    for (const text of ['☁\udc4c', '\ud83d', 'a\ud800b', '\udfff\ud800', 'GC-\u0000']) expect(isStorableText(text), JSON.stringify(text)).toBe(false);
  });
});

describe('requestText', () => {
  test('checks the text before the field rules, so the message names the real problem', () => {
    const result = requestText().trim().min(1).safeParse('\udc4c');
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]?.message).toBe(MALFORMED_TEXT_MESSAGE);
  });

  test('every text field of the requests refuses ill-formed text; the scanned code does not', () => {
    expect(LoginRequest.safeParse({ email: 'demo\u0000', password: 'x' }).error?.issues[0]?.path).toEqual(['email']);
    expect(LoginRequest.safeParse({ email: 'demo', password: '\ud800secret' }).error?.issues[0]?.path).toEqual(['password']);
    expect(OrganizationParams.safeParse({ organizationId: '\udc00' }).success).toBe(false);
    expect(VerifyTicketRequest.safeParse({ eventId: 'e\u0000', qrCode: 'GC-1', day: 1 }).error?.issues[0]?.path).toEqual(['eventId']);
    // A damaged scan is a verdict (DENIED, not_found), not a 400: the code passes the schema.
    expect(VerifyTicketRequest.safeParse({ eventId: 'e1', qrCode: '☁\udc4c', day: 1 }).success).toBe(true);
  });
});

describe('renderTextSafely', () => {
  test('keeps storable text as it is', () => {
    for (const text of ['GC-ABC', '😀', 'back\\slash']) expect(renderTextSafely(text)).toBe(text);
  });

  test('writes lone surrogates and NUL as \\uXXXX escapes, keeping pairs', () => {
    expect(renderTextSafely('☁\udc4c')).toBe('☁\\uDC4C');
    expect(renderTextSafely('GC-\u0000x')).toBe('GC-\\u0000x');
    expect(renderTextSafely('\ud83d😀\ud800')).toBe('\\uD83D😀\\uD800');
    expect(isStorableText(renderTextSafely('\udfff\ud800\u0000'))).toBe(true);
  });
});
