/**
 * Vitest setup for the web project: jest-dom matchers, MSW lifecycle, clean storage and toasts per
 * test, English as the language of every test.
 *
 * App modules are imported lazily inside the hooks, after the test file has been collected, so a
 * test file that installs Capacitor's Android bridge first (`@/test/android-bridge-install.ts`) has
 * it in place before `@capacitor/*` loads here too.
 */
import '@testing-library/jest-dom/vitest';
// IndexedDB for the offline door list and outbox (issue 12): jsdom has none.
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { i18n } from '@/lib/i18n/index.ts';

// The suite shares two cores with other workspaces' suites; findBy*/waitFor wait up to 5 s, not 1 s.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no layout and no ResizeObserver; Radix's tooltip positioning needs the constructor only.
class NoLayoutResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= NoLayoutResizeObserver;
// Nor scrolling: the scanner scrolls a new verdict into view (proven in the e2e suite).
Element.prototype.scrollIntoView ??= function scrollIntoView(): void {};

// Every test starts in English (the SPEC texts), whatever the machine's locale or an earlier test chose.
beforeEach(async () => {
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
});

const loadServer = async () => (await import('./msw-server.ts')).server;

beforeAll(async () => {
  (await loadServer()).listen({ onUnhandledRequest: 'error' });
});

afterEach(async () => {
  cleanup();
  // sonner keeps active toasts in a module-level store and replays them to the next <Toaster />.
  toast.dismiss();
  (await loadServer()).resetHandlers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  // The next test starts with the server reachable, whatever this one's calls met.
  const { reportServerAnswered } = await import('@/lib/reachability.ts');
  reportServerAnswered();
  // Nor does it find the lists this test kept for offline use (lib/query-persister.ts).
  const { clearPersistedQueries } = await import('@/lib/query-persister.ts');
  await clearPersistedQueries();
  // The offline store (issue 12) starts empty for every test, like the storages above.
  const { closeOfflineDb, OFFLINE_DB_NAME } = await import('@/features/scanner/offline/offline-db.ts');
  await closeOfflineDb();
  const { deleteDB } = await import('idb');
  await deleteDB(OFFLINE_DB_NAME);
  const { loadSelection } = await import('@/lib/selection.ts');
  await loadSelection();
  // This device's switches, back to their defaults for the next test (storage was cleared above).
  const { loadDeviceSettings } = await import('@/lib/device-settings.ts');
  await loadDeviceSettings();
});

afterAll(async () => {
  (await loadServer()).close();
});
