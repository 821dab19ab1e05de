/**
 * React's API on Preact (docs/decisions/063): every import of `react`, `react-dom` and their
 * entry points — ours and our libraries' (React Router, TanStack Query, Radix, sonner, react-i18next,
 * lucide, Testing Library) — resolves to `preact/compat`, about 10 kB gzip in place of React's 75 kB
 * on the first load (issue 13). We still write against React's API and types (@types/react).
 *
 * One list for the build (vite.config.ts) and the tests (vitest.config.ts), so what is tested is what
 * ships. Each `find` matches the whole import specifier, so `react-router` or `react-i18next` are not
 * caught by `react`.
 */
export const REACT_ON_PREACT: { find: RegExp; replacement: string }[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  // compat's JSX runtime (not core's) so that compat's props handling is on for every element.
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  // Testing Library's `act` when React's own is missing.
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
];

/**
 * How Vite's own transform (oxc) compiles our JSX, in the build and the tests alike: the automatic
 * runtime from `react/jsx-runtime`, which the aliases above send to Preact's.
 */
export const JSX_ON_PREACT = { runtime: 'automatic', importSource: 'react' } as const;

/**
 * Libraries that import React, which Vitest must run through Vite (`server.deps.inline`) so that the
 * aliases above apply to them; left to Node they would load the real React next to Preact. The test
 * setup (src/test/setup.ts) fails any test file in which Node itself resolves `react` or
 * `react-dom`, so a library missing here is found at once.
 */
export const LIBRARIES_ON_REACT: RegExp[] = [
  /\/node_modules\/@testing-library\/react\//,
  /\/node_modules\/react-router\//,
  /\/node_modules\/@tanstack\/react-query/,
  /\/node_modules\/@radix-ui\//,
  /\/node_modules\/sonner\//,
  /\/node_modules\/react-i18next\//,
  /\/node_modules\/lucide-react\//,
  // Radix's own dependencies.
  /\/node_modules\/@floating-ui\/react-dom\//,
  /\/node_modules\/react-remove-scroll/,
  /\/node_modules\/react-style-singleton\//,
  /\/node_modules\/use-callback-ref\//,
  /\/node_modules\/use-sidecar\//,
];
