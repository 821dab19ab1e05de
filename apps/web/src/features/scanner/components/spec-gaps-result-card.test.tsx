/** SPEC §8 result card colours: APPROVED green, DENIED red (words and colour together). */
import { screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderWithProviders } from '@/test/render.tsx';
import type { ScanResult } from '../scanner-logic.ts';
import { ResultCard } from './result-card.tsx';

const approved: ScanResult = { id: 'r1', ticketId: 'GC-1', timestamp: '2026-07-11T10:00:00.000Z', isValid: true, details: {} };
const denied: ScanResult = { id: 'r2', ticketId: 'GC-2', timestamp: '2026-07-11T10:01:00.000Z', isValid: false, denial: {} };

test('an approved ticket shows Valid Ticket with a green APPROVED badge', () => {
  renderWithProviders(<ResultCard result={approved} />);
  const card = screen.getByRole('group', { name: 'Valid Ticket' });
  const badge = within(card).getByText('APPROVED');
  expect(badge.className).toMatch(/\bbg-green-\d+\b/);
  expect(badge.className).not.toMatch(/\bbg-red-/);
});

test('a denied ticket shows Invalid Ticket with a red DENIED badge', () => {
  renderWithProviders(<ResultCard result={denied} />);
  const card = screen.getByRole('group', { name: 'Invalid Ticket' });
  const badge = within(card).getByText('DENIED');
  expect(badge.className).toMatch(/\bbg-red-\d+\b/);
  expect(badge.className).not.toMatch(/\bbg-green-/);
});
