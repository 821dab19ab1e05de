import { SIGNED_TICKET_VECTOR, type DayDenial } from '@gatecheck/contract';
import { expect, test } from 'vitest';
import {
  canSubmitManualCode,
  denialText,
  formatClockTime,
  initialScannerState,
  manualTicketCode,
  resultCodeText,
  scannerReducer,
  toastCodeText,
  verdictNotice,
  verdictTicketText,
  type ScanResult,
  type ScannerEvent,
  type ScannerState,
} from './scanner-logic.ts';

const approved: ScanResult = { id: 'r1', ticketId: 'GC-1', timestamp: '2026-11-21T10:00:00.000Z', isValid: true, details: {} };
const denied: ScanResult = { id: 'r2', ticketId: 'GC-2', timestamp: '2026-11-21T10:01:00.000Z', isValid: false, denial: { reason: 'revoked' } };

function run(...events: ScannerEvent[]): ScannerState {
  return events.reduce(scannerReducer, initialScannerState);
}

test('the toast shows the scanned code cut to 30 characters', () => {
  expect(toastCodeText('A'.repeat(29))).toBe('A'.repeat(29));
  expect(toastCodeText('0123456789'.repeat(4))).toBe('012345678901234567890123456789');
});

test('the result card shows the first 20 characters followed by an ellipsis', () => {
  expect(resultCodeText('ABCDEFGHIJKLMNOPQRSTUVWXYZ')).toBe('ABCDEFGHIJKLMNOPQRST...');
  expect(resultCodeText('GC-1')).toBe('GC-1...');
});

test('a verdict on a signed ticket names the code it carries, not its GC1 text, unless the ticket was not found; a text that only looks signed stays as scanned', () => {
  const signed = SIGNED_TICKET_VECTOR.qrText;
  expect(verdictTicketText({ ticketId: signed, isValid: true, details: {} })).toBe(SIGNED_TICKET_VECTOR.code);
  expect(verdictTicketText({ ticketId: signed, isValid: false, denial: { reason: 'already_checked_in' } })).toBe(SIGNED_TICKET_VECTOR.code);
  // A forged signature (or a code no ticket has): the text as scanned, never a real code beside 'Ticket not found'.
  expect(verdictTicketText({ ticketId: signed, isValid: false, denial: { reason: 'not_found' } })).toBe(signed);
  expect(verdictTicketText({ ticketId: 'GC1.not-a-signed-ticket', isValid: true, details: {} })).toBe('GC1.not-a-signed-ticket');
  expect(verdictTicketText({ ticketId: 'GC-1', isValid: true, details: {} })).toBe('GC-1');
  expect(resultCodeText(verdictTicketText({ ticketId: signed, isValid: true, details: {} }))).toBe(`${SIGNED_TICKET_VECTOR.code}...`);
});

test('cuts never split a character made of two UTF-16 units', () => {
  expect(resultCodeText('🎫'.repeat(25))).toBe(`${'🎫'.repeat(20)}...`);
});

test('manual entry uses the trimmed text and refuses blank text', () => {
  expect(manualTicketCode('  GC-42 \n')).toBe('GC-42');
  expect(manualTicketCode('   ')).toBeNull();
  expect(manualTicketCode('')).toBeNull();
});

test('Verify is allowed only for non-blank text while nothing is processing', () => {
  expect(canSubmitManualCode('GC-42', false)).toBe(true);
  expect(canSubmitManualCode(' \t ', false)).toBe(false);
  expect(canSubmitManualCode('GC-42', true)).toBe(false);
});

test('the scanner starts idle with the camera off and no result', () => {
  expect(initialScannerState).toEqual({ isScanning: false, camera: 'inactive', isProcessing: false, detectedCode: null, latestResult: null, history: [] });
});

test('starting the scan shows the panel and clears the displayed result but keeps the history', () => {
  const state = run({ type: 'scanStarted' }, { type: 'manualCodeSubmitted' }, { type: 'verified', result: approved }, { type: 'scanStarted' });
  expect(state.isScanning).toBe(true);
  expect(state.latestResult).toBeNull();
  expect(state.history).toEqual([approved]);
});

test('the camera goes from starting to active, and back to inactive when stopped', () => {
  expect(run({ type: 'scanStarted' }, { type: 'cameraStarting' }).camera).toBe('starting');
  expect(run({ type: 'scanStarted' }, { type: 'cameraStarting' }, { type: 'cameraStarted' }).camera).toBe('active');
  expect(run({ type: 'scanStarted' }, { type: 'cameraStarting' }, { type: 'cameraStarted' }, { type: 'cameraStopped' }).camera).toBe('inactive');
  expect(run({ type: 'scanStarted' }, { type: 'cameraStarting' }, { type: 'cameraFailed' }).camera).toBe('failed');
});

test('a decode stops the camera, shows the code and starts processing', () => {
  const state = run({ type: 'scanStarted' }, { type: 'cameraStarting' }, { type: 'cameraStarted' }, { type: 'codeDetected', code: 'GC-9' });
  expect(state).toMatchObject({ camera: 'inactive', isProcessing: true, detectedCode: 'GC-9' });
});

test('a verdict ends processing, is displayed and is put first in the history', () => {
  const state = run(
    { type: 'scanStarted' },
    { type: 'codeDetected', code: 'GC-1' },
    { type: 'verified', result: approved },
    { type: 'manualCodeSubmitted' },
    { type: 'verified', result: denied },
  );
  expect(state).toMatchObject({ isProcessing: false, detectedCode: null, latestResult: denied });
  expect(state.history).toEqual([denied, approved]);
});

test('a failed verification ends processing without a result', () => {
  const state = run({ type: 'scanStarted' }, { type: 'codeDetected', code: 'GC-1' }, { type: 'verificationFailed' });
  expect(state).toMatchObject({ isProcessing: false, detectedCode: null, latestResult: null, history: [] });
});

test('stopping the scan hides the panel and turns the camera off', () => {
  const state = run({ type: 'scanStarted' }, { type: 'cameraStarting' }, { type: 'cameraStarted' }, { type: 'scanStopped' });
  expect(state).toMatchObject({ isScanning: false, camera: 'inactive' });
});

test('denials are explained in plain words', () => {
  const checkedInAt = '2026-11-21T10:42:00.000Z';
  const time = formatClockTime(checkedInAt);
  expect(denialText({ reason: 'already_checked_in', checkedInAt, checkedInBy: 'Demo Staff' })).toBe(`Already checked in at ${time} by Demo Staff`);
  expect(denialText({ reason: 'already_checked_in' })).toBe('Already checked in');
  expect(denialText({ reason: 'not_valid_today' })).toBe('Not valid today');
  expect(denialText({ reason: 'revoked' })).toBe('Ticket revoked');
  expect(denialText({ reason: 'not_found' })).toBe('Ticket not found');
  expect(denialText({ reason: 'wrong_event' })).toBe('Ticket for another event');
  expect(denialText({ reason: 'event_not_active' })).toBe('Event not open for entry');
  expect(denialText({ reason: 'not_event_day' })).toBe('Not an event day today');
  expect(denialText({})).toBeNull();
});

test("calendar denials word the server's facts, which name the right day (issue 15, decision 050)", () => {
  const otherDay: DayDenial = { kind: 'ticket_days', day: 1, admitted: [{ day: 2, name: 'Main Day', date: '2026-11-24' }] };
  expect(denialText({ reason: 'not_valid_today', dayDenial: otherDay })).toBe('This ticket is for Day 2, Tue 24 Nov.');
  const notToday: DayDenial = {
    kind: 'not_event_day',
    selected: { day: 1, name: 'Opening Night', date: '2026-11-23' },
    isPast: true,
    today: { day: 2, name: 'Main Day', date: '2026-11-24' },
    firstDate: '2026-11-23',
    lastDate: '2026-11-25',
  };
  expect(denialText({ reason: 'not_event_day', dayDenial: notToday })).toBe('Day 1 (Opening Night) was Mon 23 Nov. Today is Day 2, Tue 24 Nov.');
});

test('verdict toasts say Valid Ticket / Access granted and Invalid Ticket / Access denied, each in place of the last outcome toast', () => {
  expect(verdictNotice({ isValid: true, details: {} })).toEqual({ id: 'scan-outcome', title: 'Valid Ticket', description: 'Access granted', variant: 'success', isAnnounced: false });
  expect(verdictNotice({ isValid: false, denial: {} })).toEqual({ id: 'scan-outcome', title: 'Invalid Ticket', description: 'Access denied', variant: 'error', isAnnounced: false });
});

test("an undo marks the card's approval only when it is that ticket's (any letter case) and not yet undone", () => {
  const zoe: ScanResult = { id: 's1', ticketId: 'GC-ZOE', timestamp: '2026-07-11T10:00:00Z', isValid: true, details: {} };
  const shown = run({ type: 'scanStarted' }, { type: 'verified', result: zoe });
  const undone = { at: '2026-07-11T10:05:00Z', reason: 'Wrong guest' };
  expect(scannerReducer(shown, { type: 'checkInUndone', code: ' gc-zoe ', undone }).latestResult).toEqual({ ...zoe, undone });
  expect(scannerReducer(shown, { type: 'checkInUndone', code: 'GC-MAX', undone })).toBe(shown);
  const zoeDenied: ScanResult = { id: 's2', ticketId: 'GC-ZOE', timestamp: '2026-07-11T10:01:00Z', isValid: false, denial: { reason: 'already_checked_in' } };
  const deniedShown = run({ type: 'scanStarted' }, { type: 'verified', result: zoeDenied });
  expect(scannerReducer(deniedShown, { type: 'checkInUndone', code: 'GC-ZOE', undone })).toBe(deniedShown);
});
