import { fireEvent, render, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { ScanResult } from '../scanner-logic.ts';
import { VerdictFlash } from './verdict-flash.tsx';

const approved: ScanResult = { id: 'a', ticketId: 'GC-1', timestamp: '2026-07-11T10:45:00.000Z', isValid: true, details: {} };
const revoked: ScanResult = { id: 'd', ticketId: 'GC-2', timestamp: '2026-07-11T10:46:00.000Z', isValid: false, denial: { reason: 'revoked' } };

/** The always-present live region: the one element with aria-live. */
function liveRegion(container: HTMLElement): HTMLElement {
  const regions = container.querySelectorAll<HTMLElement>('[aria-live]');
  expect(regions).toHaveLength(1);
  return regions[0]!;
}

test('an approval fills the screen in green with the check icon and the word APPROVED', () => {
  const { container } = render(<VerdictFlash result={approved} onDismiss={() => undefined} />);
  const flash = container.querySelector<HTMLElement>('[data-verdict]');
  expect(flash).toHaveAttribute('data-verdict', 'approved');
  expect(flash).toHaveClass('fixed', 'inset-0', 'bg-green-700');
  expect(flash).toHaveTextContent('APPROVED');
  expect(flash?.querySelector('svg.lucide-circle-check')).not.toBeNull();
  expect(flash?.querySelector('svg.lucide-circle-x')).toBeNull();
});

test('a denial fills the screen in red with the cross icon, DENIED and the reason', () => {
  const { container } = render(<VerdictFlash result={revoked} onDismiss={() => undefined} />);
  const flash = container.querySelector<HTMLElement>('[data-verdict]');
  expect(flash).toHaveClass('bg-red-700');
  expect(flash?.querySelector('svg.lucide-circle-x')).not.toBeNull();
  expect(flash).toHaveTextContent('DENIED');
  expect(flash).toHaveTextContent('Ticket revoked');
});

test('the verdict is announced once, assertively, from a live region that stays mounted and is emptied after', () => {
  const { container, rerender } = render(<VerdictFlash result={null} onDismiss={() => undefined} />);
  const region = liveRegion(container);
  expect(region).toHaveAttribute('aria-live', 'assertive');
  expect(region).toHaveAttribute('aria-atomic', 'true');
  expect(region).toHaveTextContent(/^$/);

  rerender(<VerdictFlash result={revoked} onDismiss={() => undefined} />);
  expect(liveRegion(container)).toBe(region);
  expect(region).toHaveTextContent('DENIED. Ticket revoked');
  // The visible flash is not a second live region.
  expect(container.querySelector('[data-verdict]')?.closest('[aria-live]')).toBeNull();

  rerender(<VerdictFlash result={null} onDismiss={() => undefined} />);
  expect(liveRegion(container)).toBe(region);
  expect(region).toHaveTextContent(/^$/);
  expect(container.querySelector('[data-verdict]')).toBeNull();
});

test('a tap on the flash, or Escape, dismisses it early', () => {
  const onDismiss = vi.fn();
  const { container } = render(<VerdictFlash result={approved} onDismiss={onDismiss} />);
  fireEvent.click(container.querySelector('[data-verdict]')!);
  expect(onDismiss).toHaveBeenCalledTimes(1);
  fireEvent.keyDown(window, { key: 'Escape' });
  expect(onDismiss).toHaveBeenCalledTimes(2);
  fireEvent.keyDown(window, { key: 'Enter' });
  expect(onDismiss).toHaveBeenCalledTimes(2);
});

test('it animates only when motion is allowed (prefers-reduced-motion: shown without animation)', () => {
  const { container } = render(<VerdictFlash result={approved} onDismiss={() => undefined} />);
  const flash = container.querySelector<HTMLElement>('[data-verdict]');
  const animations = [...(flash?.classList ?? [])].filter((name) => name.includes('animate'));
  expect(animations).toEqual(['motion-safe:animate-verdict-flash']);
  expect(screen.getByText('APPROVED', { selector: 'p' })).toBeVisible();
});
