/**
 * Toasts belong to their screen (issue 15 item 7, decision 028): a screen change dismisses the toasts
 * of the screen left; a selection toast announces the next screen and stays on it, until the one after.
 */
import { screen, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import { notify } from '@/lib/toast.ts';
import { renderApp } from '@/test/render.tsx';

/** Toast titles on screen now, leaving out those on their way out. */
function toastTitles(): string[] {
  return Array.from(document.querySelectorAll('[data-sonner-toast][data-removed="false"] [data-title]'), (title) => title.textContent ?? '');
}

test('a selection toast stays on the screen it leads to and goes with it; a toast of the screen left goes at once', async () => {
  const { user } = renderApp({ route: '/organization-select' });
  notify({ title: 'Could not load organizations', variant: 'error' });
  await user.click(await screen.findByRole('button', { name: /Harbour Festivals/ }));
  await screen.findByRole('heading', { name: /Choose Your Event/ });
  await waitFor(() => expect(toastTitles()).toEqual(['Organization Selected']));

  await user.click(await screen.findByRole('button', { name: /Harbour Sound 2026/ }));
  await screen.findByRole('heading', { name: 'Select Event Day' });
  await waitFor(() => expect(toastTitles()).toEqual(['Event Selected']));
});
