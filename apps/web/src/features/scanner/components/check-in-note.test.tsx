/**
 * A ticket's check-in note on the verdict card, the full-screen flash and 'Recent scans'
 * (docs/decisions/102): shown large, marked ATTENTION when the ticket needs it, announced with the
 * verdict, and kept across a reload by the one StoredScanResult schema.
 */
import { render, screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { keepRecentScans, readRecentScans } from '../recent-scans.ts';
import type { ScanResult } from '../scanner-logic.ts';
import { keepScannerState, restoreScannerState } from '../scanner-memory.ts';
import { verdictFlashMs, VERDICT_FLASH_MS } from '../verdict-flash-logic.ts';
import { ResultCard } from './result-card.tsx';
import { VerdictFlash } from './verdict-flash.tsx';

const attention: ScanResult = {
  id: 'n1',
  ticketId: 'GC-VIP-1',
  timestamp: '2026-07-11T10:45:00.000Z',
  isValid: true,
  details: { holderName: 'Vera Vip', ticketType: 'VIP' },
  attention: { note: 'Wheelchair access\nGreen wristband', requiresAttention: true },
};
const plainNote: ScanResult = { ...attention, id: 'n2', attention: { note: 'Photographer', requiresAttention: false } };
const flagOnly: ScanResult = { ...attention, id: 'n3', attention: { note: '', requiresAttention: true } };
const againWithNote: ScanResult = {
  id: 'n4',
  ticketId: 'GC-VIP-1',
  timestamp: '2026-07-11T10:47:00.000Z',
  isValid: false,
  denial: { reason: 'already_checked_in', checkedInAt: '2026-07-11T10:45:00.000Z', checkedInBy: 'Gate A' },
  attention: { note: 'Green wristband', requiresAttention: true },
};

test('the flash shows an attention ticket\'s note large under ATTENTION, stays longer, and the note is announced with the verdict', () => {
  const { container } = render(<VerdictFlash result={attention} onDismiss={() => undefined} />);
  const flash = container.querySelector<HTMLElement>('[data-verdict]');
  expect(flash).toHaveAttribute('data-verdict', 'approved');
  expect(flash).toHaveAttribute('data-attention', 'true');
  const note = within(flash!).getByTestId('verdict-flash-note');
  expect(note).toHaveTextContent('ATTENTION');
  expect(note.querySelector('svg.lucide-triangle-alert')).not.toBeNull();
  // One instruction a line (a paragraph each), and the text is large.
  expect(within(note).getByText('Wheelchair access').tagName).toBe('P');
  expect(within(note).getByText('Green wristband').tagName).toBe('P');
  expect(within(note).getByText('Green wristband').parentElement).toHaveClass('text-3xl', 'font-bold');
  expect(container.querySelector('[aria-live]')).toHaveTextContent('APPROVED. ATTENTION: Wheelchair access. Green wristband');
  expect(verdictFlashMs(attention)).toBeGreaterThan(VERDICT_FLASH_MS);
  expect(verdictFlashMs({ ...attention, attention: undefined })).toBe(VERDICT_FLASH_MS);
});

test('a note without the flag reads "Note"; a flag without a note says to look at the guest; a denial with a note keeps its reason first', () => {
  const { container, rerender } = render(<VerdictFlash result={plainNote} onDismiss={() => undefined} />);
  expect(container.querySelector('[data-verdict]')).not.toHaveAttribute('data-attention');
  expect(screen.getByTestId('verdict-flash-note')).toHaveTextContent('NotePhotographer');
  expect(container.querySelector('[aria-live]')).toHaveTextContent('APPROVED. Note: Photographer');

  rerender(<VerdictFlash result={flagOnly} onDismiss={() => undefined} />);
  expect(screen.getByTestId('verdict-flash-note')).toHaveTextContent('ATTENTIONLook at this guest before letting them in');

  rerender(<VerdictFlash result={againWithNote} onDismiss={() => undefined} />);
  expect(container.querySelector('[aria-live]')).toHaveTextContent(/^DENIED\. Already checked in at .+ by Gate A\. ATTENTION: Green wristband$/);
  expect(screen.getByTestId('verdict-flash-note')).toHaveTextContent('Green wristband');
});

test('without a note or flag the flash and the card show no note', () => {
  const { container } = render(<VerdictFlash result={{ ...attention, attention: undefined }} onDismiss={() => undefined} />);
  expect(within(container).queryByTestId('verdict-flash-note')).toBeNull();
  expect(container.querySelector('[aria-live]')).toHaveTextContent(/^APPROVED$/);
  render(<ResultCard result={{ ...attention, attention: undefined }} />);
  expect(screen.queryByTestId('result-card-note')).toBeNull();
});

test('the result card shows the note large, with ATTENTION, beside the holder and type', () => {
  render(<ResultCard result={attention} />);
  const card = screen.getByRole('group', { name: 'Valid Ticket' });
  const note = within(card).getByTestId('result-card-note');
  expect(note).toHaveTextContent('ATTENTION');
  expect(within(note).getByText('Wheelchair access').parentElement).toHaveClass('text-xl', 'font-bold');
  expect(within(note).getByText('Green wristband')).toBeInTheDocument();
  expect(within(card).getByText('Vera Vip')).toBeInTheDocument();
});

test('the note comes back after a reload, on the latest verdict and in recent scans', () => {
  keepScannerState({ eventId: 'event-1', day: 2 }, { isScanning: true, latestResult: attention });
  expect(restoreScannerState({ eventId: 'event-1', day: 2 }).latestResult).toEqual(attention);
  keepRecentScans({ eventId: 'event-1', day: 2 }, [againWithNote, plainNote]);
  expect(readRecentScans({ eventId: 'event-1', day: 2 })).toEqual([againWithNote, plainNote]);
});
