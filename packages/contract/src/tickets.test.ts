import { describe, expect, test } from 'vitest';
import { VerifyTicketRequest, VerifyTicketResponse } from './tickets.ts';

describe('VerifyTicketRequest', () => {
  test('accepts the SPEC §7 body and trims the scanned text', () => {
    const parsed = VerifyTicketRequest.parse({ eventId: 'e1', qrCode: '  GC-ABC  ', day: 2 });
    expect(parsed).toEqual({ eventId: 'e1', qrCode: 'GC-ABC', day: 2 });
  });

  test('rejects an empty code, a fractional day and a malformed scanId', () => {
    expect(VerifyTicketRequest.safeParse({ eventId: 'e1', qrCode: '   ', day: 1 }).success).toBe(false);
    expect(VerifyTicketRequest.safeParse({ eventId: 'e1', qrCode: 'x', day: 1.5 }).success).toBe(false);
    expect(VerifyTicketRequest.safeParse({ eventId: 'e1', qrCode: 'x', day: 1, scanId: 'nope' }).success).toBe(false);
  });
});

describe('VerifyTicketResponse', () => {
  test('tells an approval from a denial by isValid', () => {
    const approved = VerifyTicketResponse.parse({ isValid: true, eventName: 'E', holderName: 'H', ticketType: 'VIP' });
    const denied = VerifyTicketResponse.parse({ isValid: false, reason: 'already_checked_in', checkedInAt: '2026-11-21T10:00:00.000Z' });
    expect(approved.isValid).toBe(true);
    expect(denied.isValid).toBe(false);
    // A reason this contract does not know (a newer server's) reads as none: still a denial (decision 094).
    expect(VerifyTicketResponse.parse({ isValid: false, reason: 'because' })).toEqual({ isValid: false, reason: undefined });
    expect(VerifyTicketResponse.safeParse({ isValid: 'no', reason: 'already_checked_in' }).success).toBe(false);
  });
});
