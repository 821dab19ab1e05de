/**
 * Vitest setup for the web projects: jest-dom matchers, MSW lifecycle, English as the language of
 * every test, and the app's state put back after each test and after each test file.
 *
 * The 'web' project runs without isolation (docs/decisions/065): the test files of one worker share
 * one jsdom window and one module graph, so what a file leaves behind, the next file finds. This file
 * is evaluated again for every test file; its hooks put back, after every test (`resetAppState`) and
 * once more after the file's own `afterAll` hooks (`resetBetweenFiles`), everything a test can
 * change outside its own render: storage, IndexedDB, the app's module-level state (selection,
 * device settings, API base, reachability, the server's API version, toasts, the verdict sound's AudioContext), MSW handlers,
 * timers, stubbed globals and environment variables, properties defined on `navigator`, the page
 * (body, <html> classes, the URL), TanStack Query's online and focus state. A new module-level
 * state in the app needs its reset here (decision 065 lists the rules).
 *
 * App modules are imported lazily inside the hooks, after the test file has been collected, so a
 * test file that installs Capacitor's Android bridge first (`@/test/android-bridge-install.ts`, the
 * 'web-native' project) has it in place before `@capacitor/*` loads here too.
 */
import '@testing-library/jest-dom/vitest';
// IndexedDB for the offline door list and outbox (issue 12): jsdom has none.
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { focusManager, onlineManager } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { i18n, loadScreenTexts } from '@/lib/i18n/index.ts';

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

// The English texts of every screen, which the app loads with the screens' code (docs/decisions/098):
// tests render those screens (and call their logic) directly.
beforeAll(() => loadScreenTexts());

// Every test starts in English (the SPEC texts), whatever the machine's locale or an earlier test chose.
beforeEach(async () => {
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
});

const importServer = async () => (await import('./msw-server.ts')).server;
type MswServer = Awaited<ReturnType<typeof importServer>>;

/**
 * The MSW server the running file started (`beforeAll`), kept on the worker's global so that the
 * file's hooks reset and close that very server. Importing `./msw-server.ts` again is not enough:
 * after a test's `vi.resetModules()` (tooltip.test.tsx) the import evaluates the module again and
 * yields a new, never-started server, so the started one was never closed and went on answering
 * beside the next file's: every request of the next files of that worker ran its handlers twice (a
 * clean CI run saw doubled door-list asks, reads and session checks, 27–28 Nov 2026).
 */
const STARTED_SERVER = Symbol.for('gatecheck.test.msw-server');
type WorkerGlobal = typeof globalThis & { [STARTED_SERVER]?: MswServer };
const worker = globalThis as WorkerGlobal;
const loadServer = async (): Promise<MswServer> => worker[STARTED_SERVER] ?? importServer();

/**
 * How long the first `listen` may take, in ms: in a new worker it first imports MSW, the contract and
 * the app's API client, which took over Vitest's 10 s hook limit when the shared machine was loaded
 * (load average 14 on 2 cores, 24 Nov 2026).
 */
const FIRST_IMPORT_TIMEOUT_MS = 30_000;

beforeAll(async () => {
  if (worker[STARTED_SERVER]) throw new Error("An earlier test file's MSW server is still listening: its handlers would run beside this file's.");
  const server = await importServer();
  server.listen({ onUnhandledRequest: 'error' });
  worker[STARTED_SERVER] = server;
}, FIRST_IMPORT_TIMEOUT_MS);

/**
 * Puts back the app's stored and module-level state after a test: real timers, the page unmounted,
 * no toast, MSW's default handlers, empty localStorage, sessionStorage and IndexedDB stores, and the
 * modules that keep state read it again from that empty storage.
 */
async function resetAppState(): Promise<void> {
  // IndexedDB (fake-indexeddb) below schedules its work with setImmediate: never on a fake clock.
  vi.useRealTimers();
  cleanup();
  // sonner keeps active toasts in a module-level store and replays them to the next <Toaster />.
  toast.dismiss();
  (await loadServer()).resetHandlers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  // The next test starts with the server reachable, whatever this one's calls met.
  const { reportServerAnswered } = await import('@/lib/reachability.ts');
  reportServerAnswered();
  // ...and speaking this app's contract.
  const { resetApiCompatibility } = await import('@/lib/api-compatibility.ts');
  resetApiCompatibility();
  // ...and a browser not yet asked to keep the app's storage.
  const { resetDeviceStorageKeeping } = await import('@/lib/persistent-storage.ts');
  resetDeviceStorageKeeping();
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
  // The build's API base (a test may have used another server's).
  const { loadServerAddress } = await import('@/lib/server-address.ts');
  await loadServerAddress();
}

/** sonner's delay between a toast's close and its removal (ms; `TIME_BEFORE_UNMOUNT` in sonner's source). */
const SONNER_TIME_BEFORE_UNMOUNT_MS = 200;

/**
 * What a test file may change beyond a test (in its own hooks, or left by a failed test), put back
 * before the next file of the worker: no stubbed global or environment variable, no property a test
 * defined on `navigator`, an empty page at '/', TanStack Query online and following the page's
 * focus, toasts and the verdict sound as at a fresh start of the app; then `resetAppState`.
 */
async function resetBetweenFiles(): Promise<void> {
  // sonner removes a closing toast from its list 200 ms after the close began (its
  // TIME_BEFORE_UNMOUNT), by a timer that outlives the Toaster's unmount: let it run here, while the
  // file's window exists. After a worker's last file that window is gone, and the timer's React update
  // threw 'window is not defined' as an unhandled error, failing a green run (CI, 28 Nov 2026).
  await new Promise((resolve) => setTimeout(resolve, SONNER_TIME_BEFORE_UNMOUNT_MS + 50));
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  // `Object.defineProperty(navigator, 'mediaDevices' | 'vibrate', …)` in tests: jsdom's navigator
  // keeps its API on its prototype (and its implementation under a symbol), so every own property
  // with a name was put there by a test.
  for (const name of Object.getOwnPropertyNames(navigator)) Reflect.deleteProperty(navigator, name);
  window.history.replaceState(null, '', '/');
  document.body.replaceChildren();
  for (const { name } of [...document.body.attributes]) document.body.removeAttribute(name);
  // lib/theme.ts's `dark` class and color-scheme, use-transparent-webview's class; `lang` follows i18n.
  document.documentElement.removeAttribute('class');
  document.documentElement.removeAttribute('style');
  onlineManager.setOnline(true);
  focusManager.setFocused(undefined);
  const { resetToasts } = await import('@/lib/toast.ts');
  resetToasts();
  const { verdictSound } = await import('@/lib/verdict-sound.ts');
  verdictSound.reset();
  await resetAppState();
}

/**
 * A failed attempt, printed even when the retry then passes (docs/decisions/156), so a flaky test is
 * named in the run's output instead of passing unseen. Registered before `resetAppState`, it runs
 * after it (after-hooks run in reverse), with the attempt's result final.
 */
afterEach(({ task }) => {
  const result = task.result;
  if (result?.state !== 'fail') return;
  const reason = result.errors?.[0]?.message?.split('\n')[0] ?? 'no error message';
  console.warn(`[flaky?] ${task.file?.name ?? ''} > ${task.name}: attempt ${(result.retryCount ?? 0) + 1} failed (${reason})`);
});

afterEach(resetAppState);

// Registered first, so it runs after the test file's own afterAll hooks (Vitest runs them in reverse).
afterAll(async () => {
  await resetBetweenFiles();
  (await loadServer()).close();
  delete worker[STARTED_SERVER];
});
