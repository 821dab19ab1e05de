/** The entry point renders the app even when storage is blocked (SPEC §2: the login screen still shows). */
import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, expect, test, vi } from 'vitest';
import { startApp } from './start-app.tsx';

let root: Root | undefined;
let container: HTMLElement | undefined;

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

test('the app renders the login screen when the browser blocks storage', async () => {
  vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  });
  container = document.body.appendChild(document.createElement('div'));
  root = await act(() => startApp(container as HTMLElement));
  expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
  expect(window.location.pathname).toBe('/login');
});
