/**
 * First setup file of the web tests: the tests run on Preact, as the build ships (docs/decisions/063,
 * apps/web/react-on-preact.ts). Vite's aliases send `react` and `react-dom` to `preact/compat` in
 * every module Vite runs; a library Vitest leaves to Node (not in `LIBRARIES_ON_REACT`) would load
 * the real React next to it. This Node resolve hook makes that an error, naming the importer, instead
 * of a test that passes on a React the app does not ship.
 */
import { registerHooks } from 'node:module';
import { afterAll } from 'vitest';

const REACT_SPECIFIER = /^react(?:-dom)?(?:\/.*)?$/;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (REACT_SPECIFIER.test(specifier)) {
      throw new Error(
        `${context.parentURL ?? 'a module'} imports '${specifier}' outside Vite, which would load the real React: ` +
          'add the library to LIBRARIES_ON_REACT (apps/web/react-on-preact.ts).',
      );
    }
    return nextResolve(specifier, context);
  },
});

/**
 * Preact runs effects a frame after a render (requestAnimationFrame, or a 35 ms timeout when no frame
 * comes); a test file's last render may leave that timeout pending. Letting it fire before the jsdom
 * environment is torn down keeps it from calling `cancelAnimationFrame` once jsdom's is gone.
 */
const PREACT_EFFECT_TIMEOUT_MS = 35;
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, PREACT_EFFECT_TIMEOUT_MS * 2));
});
