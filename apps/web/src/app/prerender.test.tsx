/**
 * The prerendered sign-in screen (docs/decisions/082) against what React renders: the body the build
 * puts in index.html (`prerenderedBody`), with the boot script's first paint (src/boot/first-paint.ts)
 * run as the browser runs it,
 * then the app's real start (`startApp`). A hydration that disagrees with the HTML makes React
 * report it on console.error (and to `onRecoverableError`); any console.error fails these tests.
 */
import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { applyFirstPaint } from '@/boot/first-paint.ts';
import { createSessionStore } from '@/features/auth/session-store.ts';
import { i18n } from '@/lib/i18n/index.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { readyQueryClient } from '@/lib/query-client-slot.ts';
import { storageKeys } from '@/lib/storage.ts';
import { testUser } from '@/test/fixtures.ts';
import { App } from './app.tsx';
import { prerenderedBody } from './prerender.tsx';
import { idPrefixOf } from './prerendered-page.ts';
import { AppRouter } from './router.tsx';
import { startApp } from './start-app.tsx';

let root: Root | undefined;
let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error');
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.documentElement.removeAttribute('data-boot');
  vi.restoreAllMocks();
});

/** The built page at `path`: the prerendered body, then the boot script's first paint as the browser runs it from <head>. */
async function loadPrerenderedPage(path: string): Promise<void> {
  const body = await prerenderedBody();
  window.history.replaceState(null, '', path);
  document.body.innerHTML = body;
  applyFirstPaint();
}

/** The element the page shows now (index.css's rules, which jsdom does not apply, written out). */
function shownPrerendered(): string[] {
  const html = document.documentElement;
  const boot = html.dataset['boot'];
  return [...document.querySelectorAll<HTMLElement>('[data-prerendered]')]
    .filter((element) => element.dataset['prerendered'] === boot && element.lang === html.lang)
    .map((element) => `${element.dataset['prerendered']}:${element.lang}`);
}

test('a visitor with no stored session at /login: the English sign-in is hydrated in place, with no mismatch', async () => {
  await loadPrerenderedPage('/login');
  expect(shownPrerendered()).toEqual(['sign-in:en']);
  const painted = screen.getAllByRole('heading', { level: 1, name: 'Gatecheck Scanner' })[0];
  const field = document.querySelector<HTMLInputElement>('#root input[name="identifier"]');
  // Typed before React runs: kept.
  if (field) field.value = 'early@example.com';

  root = await act(() => startApp());
  expect(await screen.findByRole('button', { name: 'Sign In' })).toBeEnabled();
  expect(painted?.isConnected).toBe(true);
  expect(screen.getByLabelText('Email or Username')).toHaveValue('early@example.com');
  expect(document.querySelectorAll('[data-prerendered]')).toHaveLength(0);
  expect(document.documentElement).not.toHaveAttribute('data-boot');
  expect(consoleError).not.toHaveBeenCalled();
});

test('a German device hydrates the German sign-in; a theme chosen on the device does not make a mismatch', async () => {
  window.localStorage.setItem(storageKeys.deviceSettings, JSON.stringify({ language: 'de', theme: 'dark' }));
  await loadPrerenderedPage('/');
  expect(window.location.pathname).toBe('/login');
  expect(document.documentElement.lang).toBe('de');
  expect(document.documentElement).toHaveClass('dark');
  expect(shownPrerendered()).toEqual(['sign-in:de']);
  const painted = screen.getByText('Melde dich an, um Tickets zu scannen');

  root = await act(() => startApp());
  expect(await screen.findByRole('button', { name: 'Anmelden' })).toBeEnabled();
  expect(painted.isConnected).toBe(true);
  expect(screen.queryByText('Sign in to start scanning tickets')).not.toBeInTheDocument();
  // The render after hydration shows the stored choice.
  expect(await screen.findByRole('radio', { name: i18n.t('theme.dark') })).toBeChecked();
  expect(consoleError).not.toHaveBeenCalled();
});

test('a stored session paints the guard\'s Loading... from the HTML, and the app renders afresh', async () => {
  window.localStorage.setItem(storageKeys.user, JSON.stringify(testUser));
  await loadPrerenderedPage('/login');
  expect(shownPrerendered()).toEqual(['loading:en']);
  expect(document.querySelector('[data-prerendered="loading"][lang="en"]')).toHaveTextContent('Loading...');
  root = await act(() => startApp());
  // The stored user is checked (GET /users/me answers with the test user): on to the furthest step.
  expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
  expect(document.querySelectorAll('[data-prerendered]')).toHaveLength(0);
  // Signed in, the app prefetches the QR decoder, whose .wasm jsdom cannot fetch: its loader says so
  // on console.error, sooner or later. Every other console.error (React's hydration warnings) fails.
  const isDecoderLoadMessage = (message: unknown) => /wasm|ArrayBuffer instantiation/.test(String(message));
  expect(consoleError.mock.calls.filter((call: unknown[]) => !isDecoderLoadMessage(call[0]))).toEqual([]);
});

test('the check catches prerendered HTML that differs from what React renders', async () => {
  await loadPrerenderedPage('/login');
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root');
  container.innerHTML = container.innerHTML.replace('Sign in to start scanning tickets', 'Sign in to scan');
  const queryClient = readyQueryClient(createQueryClient({ retry: false }));
  const session = createSessionStore({ queryClient, initial: { user: null } });
  const onRecoverableError = vi.fn();
  consoleError.mockImplementation(() => undefined);
  await act(async () => {
    root = hydrateRoot(container, <App session={session} queryClient={queryClient} router={<AppRouter />} />, { onRecoverableError, identifierPrefix: idPrefixOf('en') });
  });
  expect(onRecoverableError).toHaveBeenCalled();
});

test('the page holds each language\'s sign-in with ids of its own: a label names the field of its own language', async () => {
  await loadPrerenderedPage('/login');
  const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
  expect(new Set(ids).size).toBe(ids.length);
  const radioGroups = [...document.querySelectorAll<HTMLInputElement>('input[type="radio"]')].map((radio) => radio.name);
  // Theme and language, in two languages: four groups.
  expect(new Set(radioGroups).size).toBe(4);
  const german = document.querySelector('[data-prerendered="sign-in"][lang="de"]');
  const label = [...(german?.querySelectorAll('label') ?? [])].find((element) => element.textContent === 'E-Mail oder Benutzername');
  expect(label?.getAttribute('for')).toBeTruthy();
  expect(german?.querySelector(`#${CSS.escape(label?.getAttribute('for') ?? '')}`)).toHaveAttribute('name', 'identifier');
});
