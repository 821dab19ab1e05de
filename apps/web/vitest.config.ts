import { readFileSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { defineProject } from 'vitest/config';
import { JSX_ON_PREACT, LIBRARIES_ON_REACT, REACT_ON_PREACT } from './react-on-preact.ts';

/**
 * Libraries that import React whose package Vitest would resolve to its CommonJS build (no `exports`
 * map, or a `node` condition before `import`): its `require('react')` is Node's, which the aliases
 * do not reach. Their ES module build (the package's `module` field) goes through Vite, so the
 * aliases apply (docs/decisions/063).
 */
const ES_MODULE_BUILDS = [
  '@testing-library/react',
  'react-router',
  'lucide-react',
  'react-remove-scroll',
  'react-remove-scroll-bar',
  'react-style-singleton',
  'use-callback-ref',
  'use-sidecar',
].map((name) => {
  const manifest = findPackageJSON(name, import.meta.url);
  if (manifest === undefined) throw new Error(`${name} is not installed`);
  const { module } = JSON.parse(readFileSync(manifest, 'utf8')) as { module: string };
  return { find: new RegExp(`^${name.replace('/', '\\/')}$`), replacement: join(dirname(manifest), module) };
});

/**
 * The test files that run the app on Capacitor's Android bridge (src/test/android-bridge.ts): they
 * install the bridge before `@capacitor/*` loads, and Capacitor fixes the platform of each plugin
 * when the plugin module is evaluated, once per module graph. They run in the 'web-native' project
 * (vitest.native.config.ts), each in its own fresh module graph and jsdom window.
 */
export const NATIVE_TEST_FILES = ['src/**/*.native.test.{ts,tsx}'];

/**
 * Web unit and screen tests ('web'): jsdom, Testing Library, MSW (see src/test/setup.ts). On Preact,
 * as the build (the same aliases, docs/decisions/063); the libraries that import React are run
 * through Vite so that the aliases reach them too.
 *
 * `isolate: false` (docs/decisions/065): the files of one worker share one jsdom window and one
 * module graph instead of paying about 1.5 s each for new ones; src/test/setup.ts puts the app's
 * state back after every test and every file. The native files are left to 'web-native'.
 */
export default defineProject({
  oxc: { jsx: JSX_ON_PREACT },
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...REACT_ON_PREACT,
      ...ES_MODULE_BUILDS,
    ],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: NATIVE_TEST_FILES,
    isolate: false,
    setupFiles: ['./src/test/react-is-preact.ts', './src/test/setup.ts'],
    server: { deps: { inline: LIBRARIES_ON_REACT } },
  },
});
