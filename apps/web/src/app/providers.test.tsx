import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { testEvent, testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

afterEach(() => {
  vi.useRealTimers();
});

test('tooltips open only after the 700 ms delay (SPEC §9)', async () => {
  renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
  await screen.findByRole('button', { name: /Opening Friday/ });
  // The first mouse over a control loads Radix's tooltip, which then takes the control (docs/decisions/128).
  fireEvent.pointerMove(await screen.findByRole('button', { name: 'Back' }), { pointerType: 'mouse' });
  await waitFor(() => expect(screen.getByRole('button', { name: 'Back' })).toHaveAttribute('data-state', 'closed'));
  // The web files share one module graph (isolate: false, docs/decisions/065): when an earlier file
  // loaded Radix's tooltip, the control was Radix's from the start and that first move already
  // started the open delay on the real clock. The pointer leaves first (React's leave comes from
  // pointerout), so the move below starts the delay afresh on the fake one.
  fireEvent.pointerOut(screen.getByRole('button', { name: 'Back' }), { pointerType: 'mouse' });
  // Radix's delay is a setTimeout. setImmediate stays real: IndexedDB (fake-indexeddb) schedules its
  // work with it, and a request queued on a fake one never completes (docs/decisions/065).
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  fireEvent.pointerMove(screen.getByRole('button', { name: 'Back' }), { pointerType: 'mouse' });
  act(() => vi.advanceTimersByTime(650));
  expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  act(() => vi.advanceTimersByTime(100));
  expect(screen.getByRole('tooltip')).toHaveTextContent('Back');
});
