import { expect, test } from 'vitest';
import { attentionFields, checkInAttention, checkInNoteText, parseAttentionFlag, UpdateTicketTypeRequest } from './check-in-notes.ts';

test("a ticket's note comes before its type's, one a line, and attention is set when either sets it", () => {
  expect(checkInAttention({ note: 'Wheelchair access', requiresAttention: false }, { note: 'Green wristband', requiresAttention: true })).toEqual({
    note: 'Wheelchair access\nGreen wristband',
    requiresAttention: true,
  });
  expect(checkInAttention({ note: '', requiresAttention: true }, { note: '  ', requiresAttention: false })).toEqual({ note: '', requiresAttention: true });
  expect(checkInAttention({ note: '', requiresAttention: false }, { note: 'Green wristband', requiresAttention: false })).toEqual({ note: 'Green wristband', requiresAttention: false });
  expect(checkInAttention({ note: '', requiresAttention: false }, undefined)).toBeNull();
  expect(checkInAttention({ note: ' ', requiresAttention: false }, { note: '', requiresAttention: false })).toBeNull();
});

test('the verdict carries only what there is: no fields for none, no empty note, no false flag', () => {
  expect(attentionFields(null)).toEqual({});
  expect(attentionFields({ note: '', requiresAttention: true })).toEqual({ requiresAttention: true });
  expect(attentionFields({ note: 'Photographer', requiresAttention: false })).toEqual({ checkInNote: 'Photographer' });
});

test('a note is trimmed with Windows line ends made \\n; over 300 characters, a control character or a lone surrogate is refused', () => {
  expect(checkInNoteText().parse('  Stamp the hand\r\n(blue)\r ')).toBe('Stamp the hand\n(blue)');
  expect(checkInNoteText().parse('')).toBe('');
  expect(checkInNoteText().parse('x'.repeat(300))).toHaveLength(300);
  expect(checkInNoteText().safeParse('x'.repeat(301)).error?.issues[0]?.message).toBe('must be at most 300 characters');
  for (const bad of ['tab\there', 'bell\u0007', 'esc\u001b[31m', 'c1\u0085', 'del\u007f']) {
    expect(checkInNoteText().safeParse(bad).error?.issues[0]?.message, JSON.stringify(bad)).toMatch(/control characters/);
  }
  expect(checkInNoteText().safeParse('lone \udc4c').success).toBe(false);
  expect(UpdateTicketTypeRequest.safeParse({ requiresAttention: 'yes' }).success).toBe(false);
});

test('the attention flag reads yes/no, true/false, 1/0 in any case; empty is no; anything else is refused', () => {
  for (const yes of ['yes', 'YES', ' Yes ', 'y', 'true', 'TRUE', '1']) expect(parseAttentionFlag(yes), yes).toBe(true);
  for (const no of ['no', 'No', 'n', 'false', '0', '', '  ']) expect(parseAttentionFlag(no), no).toBe(false);
  for (const other of ['maybe', 'ja', '2', 'yes!', 'on']) expect(parseAttentionFlag(other), other).toBeNull();
});
