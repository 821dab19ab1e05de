import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

/**
 * The test files that run the app on Capacitor's Android bridge (src/test/android-bridge.ts): they
 * install the bridge before `@capacitor/*` loads, and Capacitor fixes the platform of each plugin
 * when the plugin module is evaluated, once per module graph. They run in the 'web-native' project
 * (vitest.native.config.ts), each in its own fresh module graph and jsdom window.
 */
export const NATIVE_TEST_FILES = ['src/**/*.native.test.{ts,tsx}'];

/**
 * Web unit and screen tests ('web'): jsdom, Testing Library, MSW (see src/test/setup.ts), on React 19
 * and react-dom as the build ships (docs/decisions/081); JSX compiled by the build's React plugin.
 *
 * `isolate: false` (docs/decisions/065): the files of one worker share one jsdom window and one
 * module graph instead of paying about 1.5 s each for new ones; src/test/setup.ts puts the app's
 * state back after every test and every file. The native files are left to 'web-native'.
 */
export default defineProject({
  plugins: [react()],
  resolve: {
    alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: NATIVE_TEST_FILES,
    isolate: false,
    setupFiles: ['./src/test/setup.ts'],
    // One findBy*/waitFor may wait 5 s (asyncUtilTimeout in src/test/setup.ts), so a test must be
    // given longer than that: with Vitest's default 5 s, a click, a lazily imported screen and one
    // find on a loaded CI machine timed out the test before the find could (CI, 27 Nov 2026).
    testTimeout: 20_000,
    // A test that fails is run once more, after the app's state is put back (docs/decisions/156):
    // a leftover of an earlier file (this project shares one module graph) failed old tests at CI
    // load, three clean CI runs in four, never in a local run. A test that fails twice still fails,
    // and every failed attempt is printed (src/test/setup.ts), so a flake stays in sight.
    retry: 1,
  },
});
