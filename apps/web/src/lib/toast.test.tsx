/**
 * sonner is loaded after the first screen (issue 13, docs/decisions/061): toasts raised before it
 * arrives are shown once it does, unless their screen was left first (lib/toast.ts).
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { dismissScreenToasts, notify, resetToasts, useToastLibrary } from './toast.ts';

/** Mounts sonner's toaster once lib/toast.ts has loaded it, as the app's providers do. */
function LazyToaster() {
  const library = useToastLibrary();
  return library ? <library.Toaster /> : <p>No toaster yet</p>;
}

/** Toast titles on screen now, leaving out those on their way out. */
function toastTitles(): string[] {
  return Array.from(document.querySelectorAll('[data-sonner-toast][data-removed="false"] [data-title]'), (title) => title.textContent ?? '');
}

test('a toast raised before sonner is loaded shows once it is; one whose screen was left before never shows', async () => {
  // As at a fresh start of the app, whichever test of this file ran before.
  resetToasts();
  notify({ title: 'Left behind', variant: 'error' });
  dismissScreenToasts();
  notify({ title: 'Login failed', description: 'Please check your credentials', variant: 'error' });
  render(<LazyToaster />);
  // The toaster is not there on the first render: sonner is still loading.
  expect(screen.getByText('No toaster yet')).toBeInTheDocument();
  await waitFor(() => expect(toastTitles()).toEqual(['Login failed']));
  expect(screen.queryByText('Left behind')).not.toBeInTheDocument();

  // Once loaded, a toast shows at once and a screen change dismisses it.
  notify({ title: 'Event Selected', variant: 'success' });
  await waitFor(() => expect(toastTitles()).toContain('Event Selected'));
  dismissScreenToasts();
  await waitFor(() => expect(toastTitles()).toEqual([]));
});

test('after resetToasts the toaster waits for sonner again, as at a fresh start, and toasts show once it is there', async () => {
  notify({ title: 'Before the reset', variant: 'info' });
  const first = render(<LazyToaster />);
  await waitFor(() => expect(toastTitles()).toEqual(['Before the reset']));
  first.unmount();

  resetToasts();
  render(<LazyToaster />);
  expect(screen.getByText('No toaster yet')).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByText('No toaster yet')).not.toBeInTheDocument());
  notify({ title: 'After the reset', variant: 'info' });
  await waitFor(() => expect(toastTitles()).toContain('After the reset'));
});

test('a toast that replaces one at the end of its time still shows (the next verdict about 4 s after the last)', async () => {
  resetToasts();
  render(<LazyToaster />);
  await waitFor(() => expect(screen.queryByText('No toaster yet')).not.toBeInTheDocument());
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'requestAnimationFrame', 'cancelAnimationFrame', 'Date'] });
  try {
    act(() => notify({ id: 'scan-outcome', title: 'Valid Ticket', description: 'Access granted', variant: 'success', isBrief: true }));
    await act(async () => vi.advanceTimersByTimeAsync(100));
    expect(toastTitles()).toEqual(['Valid Ticket']);
    // Its 2 s run out: it is on its way out when the next verdict comes.
    await act(async () => vi.advanceTimersByTimeAsync(2_000));
    act(() => notify({ id: 'scan-outcome', title: 'Invalid Ticket', description: 'Access denied', variant: 'error' }));
    await act(async () => vi.advanceTimersByTimeAsync(1_000));
    expect(toastTitles()).toEqual(['Invalid Ticket']);
  } finally {
    vi.useRealTimers();
  }
});
