/**
 * Vitest: puts the app on Capacitor's Android bridge path (issue 9 tests). Installs the stand-in of
 * capacitor-stand-in.ts on jsdom's global, then runs Capacitor's real `native-bridge.js` (the script
 * the Android shell injects), so `@capacitor/core` sees the android platform and routes every plugin
 * call through `nativePromise`/`nativeCallback` → `androidBridge.postMessage` → the stand-in.
 *
 * Must run before any `@capacitor/*` module is evaluated in the test file: call it at the top of the
 * file and import the code under test dynamically afterwards (`await import('…')`), or import
 * `@/test/android-bridge-install.ts` as the test file's FIRST import.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import { installCapacitorStandIn, STAND_IN_PLUGINS, type CapacitorStandIn, type CapacitorStandInOptions } from './capacitor-stand-in.ts';

/** Options every test starts from: camera granted, a torch, preferences under 'standin-prefs:'. */
export const DEFAULT_STAND_IN_OPTIONS: CapacitorStandInOptions = {
  camera: 'granted',
  cameraOnRequest: 'granted',
  torch: true,
  startScanFails: false,
  preferencesFail: false,
  prefsPrefix: 'standin-prefs:',
};

/** Test files that may install the bridge: the 'web-native' project's (apps/web/vitest.config.ts). */
const NATIVE_TEST_FILE = /\.native\.test\.tsx?$/;

/**
 * Installs the stand-in and Capacitor's Android bridge script; returns the stand-in.
 * @throws when the running test file is not a `*.native.test.ts(x)`: only those run isolated
 *   ('web-native'); in the 'web' project the files share one module graph, where Capacitor may have
 *   taken the web platform already and the bridge would reach the files after it (docs/decisions/065).
 */
export function installAndroidBridge(options: Partial<CapacitorStandInOptions> = {}): CapacitorStandIn {
  const testPath = expect.getState().testPath ?? '';
  if (!NATIVE_TEST_FILE.test(testPath)) {
    throw new Error(`${testPath || 'This test file'} installs Capacitor's Android bridge: name it *.native.test.ts(x) so that it runs isolated (docs/decisions/065).`);
  }
  const standIn = installCapacitorStandIn({ options: { ...DEFAULT_STAND_IN_OPTIONS, ...options }, plugins: STAND_IN_PLUGINS }, globalThis);
  const bridgePath = createRequire(import.meta.url).resolve('@capacitor/android/capacitor/src/main/assets/native-bridge.js');
  // Indirect eval: the script runs in the global scope, as the WebView runs it.
  (0, eval)(readFileSync(bridgePath, 'utf8'));
  return standIn;
}

/** Waits until the bridge's queued answers (setTimeout 0) have been delivered. */
export function flushBridge(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * The device Preferences as the stand-in keeps them (localStorage under the default prefix), with a
 * Map-like API for tests: what the app stored through the bridge, and what a test puts there first.
 */
export const devicePreferences = {
  get: (key: string): string | null => localStorage.getItem(`${DEFAULT_STAND_IN_OPTIONS.prefsPrefix}${key}`),
  set: (key: string, value: string): void => localStorage.setItem(`${DEFAULT_STAND_IN_OPTIONS.prefsPrefix}${key}`, value),
  has: (key: string): boolean => localStorage.getItem(`${DEFAULT_STAND_IN_OPTIONS.prefsPrefix}${key}`) !== null,
  /** How many keys are stored. */
  get size(): number {
    return Object.keys(localStorage).filter((key) => key.startsWith(DEFAULT_STAND_IN_OPTIONS.prefsPrefix)).length;
  },
};
