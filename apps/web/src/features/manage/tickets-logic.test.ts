import type { AuditEntry } from '@gatecheck/contract';
import { expect, test } from 'vitest';
import { actionWords, changeLines } from './manage-logic.ts';
import { checkTicketForm, checkTicketTypeEdit, checkTicketTypeForm, importPercent, readImportLines } from './tickets-logic.ts';

const actor = { kind: 'user', name: 'Dana Admin' } as const;

test("the ticket forms are checked with the contract's schemas, each problem by its field", () => {
  const everyDay = { isEveryDay: true, days: [] };
  expect(checkTicketTypeForm({ name: '  ', checkInNote: 'x'.repeat(301), requiresAttention: false, isEveryDay: false, days: [] }).problems).toEqual({
    name: 'Give the ticket type a name.',
    checkInNote: 'Use at most 300 characters.',
    days: 'Choose at least one day, or every day.',
  });
  expect(checkTicketTypeForm({ name: ' VIP  Lounge ', checkInNote: '', requiresAttention: true, ...everyDay }).request).toEqual({ name: 'VIP Lounge', checkInNote: '', requiresAttention: true, days: null });
  expect(checkTicketTypeForm({ name: 'Friday', checkInNote: '', requiresAttention: false, isEveryDay: false, days: [1] }).request).toMatchObject({ days: [1] });
  expect(checkTicketForm({ holderName: '', ticketType: 'VIP' }).problems).toEqual({ holderName: 'Give the holder a name.' });
});

test("a type's edit sends a new name only when it differs (a rename), and its days as every day (null) or the days checked", () => {
  expect(checkTicketTypeEdit('VIP', { name: ' VIP ', checkInNote: '', requiresAttention: false, isEveryDay: true, days: [2] }).request).toEqual({ checkInNote: '', requiresAttention: false, days: null });
  expect(checkTicketTypeEdit('VIP', { name: 'VIP Lounge', checkInNote: '', requiresAttention: false, isEveryDay: false, days: [2] }).request).toEqual({ name: 'VIP Lounge', checkInNote: '', requiresAttention: false, days: [2] });
  expect(checkTicketTypeEdit('VIP', { name: '', checkInNote: '', requiresAttention: false, isEveryDay: false, days: [] }).problems).toEqual({
    name: 'Give the ticket type a name.',
    days: 'Choose at least one day, or every day.',
  });
});

test("a ticket's, a type's and an import's activity entries say what changed in words", () => {
  const ticket = { code: 'T-1', holderName: 'Zoë van Dijk', ticketType: 'VIP', revokedAt: null, checkInNote: '', requiresAttention: false };
  const edited: AuditEntry = { id: '1', at: '2026-11-27T10:00:00.000Z', actor, action: 'ticket.updated', before: ticket, after: { ...ticket, holderName: 'Zoe Smith' } };
  expect(actionWords(edited)).toBe('Changed a ticket');
  expect(changeLines(edited).map((line) => [line.label, line.before, line.after])).toEqual([
    ['Code', 'T-1', 'T-1'],
    ['Holder', 'Zoë van Dijk', 'Zoe Smith'],
  ]);
  const revoked: AuditEntry = { ...edited, action: 'ticket.revoked', after: { ...ticket, revokedAt: '2026-11-27T10:00:00.000Z' } };
  expect(changeLines(revoked).map((line) => [line.label, line.after])).toEqual([
    ['Code', 'T-1'],
    ['Revoked', 'Revoked'],
  ]);
  const renamed: AuditEntry = {
    ...edited,
    action: 'ticket-type.updated',
    before: { name: 'Friday', checkInNote: '', requiresAttention: false, days: null },
    after: { name: 'Friday only', checkInNote: '', requiresAttention: false, days: [1] },
  };
  expect(changeLines(renamed).map((line) => [line.label, line.before, line.after])).toEqual([
    ['Ticket type', 'Friday', 'Friday only'],
    ['Days', 'All days', 'Days 1'],
  ]);
  const deleted: AuditEntry = { ...edited, action: 'ticket-type.deleted', before: { name: 'Spare', checkInNote: 'Blue band', requiresAttention: true }, after: null };
  expect(changeLines(deleted).map((line) => [line.label, line.before, line.after])).toEqual([
    ['Ticket type', 'Spare', '—'],
    ['Check-in note', 'Blue band', '—'],
    ['Needs attention', 'On', '—'],
  ]);
  const oneImport: AuditEntry = { ...edited, action: 'tickets.imported', before: null, after: { rows: 1_200, added: 1_197, skipped: 1, rejected: 2, isFinished: true } };
  expect(changeLines(oneImport).map((line) => [line.label, line.after])).toEqual([
    ['Rows read', '1200'],
    ['Tickets added', '1197'],
    ['Skipped (code already taken)', '1'],
    ['Rejected rows', '2'],
    ['Import', 'Finished'],
  ]);
  // An entry of an older server, one per batch, still reads.
  const imported: AuditEntry = { ...edited, action: 'tickets.imported', before: null, after: { firstLine: 2, lastLine: 501, imported: 500 } };
  expect(changeLines(imported).map((line) => [line.label, line.after])).toEqual([
    ['Lines', '2–501'],
    ['Tickets added', '500'],
  ]);
});

test("the import's answer is read line by line however its bytes are cut; a line that is not one is an error", async () => {
  const text = '{"type":"progress","rows":500,"bytes":20}\n{"type":"done","summary":{"rows":1,"imported":1,"generatedCodes":0,"rejected":[],"rejectedCount":0,"offlineOnlyCount":0}}\nnot json\n';
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let index = 0; index < bytes.length; index += 7) controller.enqueue(bytes.slice(index, index + 7));
      controller.close();
    },
  });
  const lines = [];
  for await (const line of readImportLines(body)) lines.push(line.type);
  expect(lines).toEqual(['progress', 'done', 'error']);
  expect(importPercent(50, 200)).toBe(25);
  expect(importPercent(10, 0)).toBe(0);
});
