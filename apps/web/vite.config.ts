import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { bootInIndexHtml } from './boot-plugin.ts';
import { appCodeSplitting } from './chunking.ts';
import { prerenderSignIn } from './prerender-plugin.ts';

/**
 * Files the server may send compressed: text assets and the QR decoder's .wasm (954 kB raw, about a
 * third in brotli). Each gets `.br` and `.gz` siblings at build time, served by the server's
 * @fastify/static `preCompressed` to browsers that accept them (issue 15 item 5,
 * docs/decisions/024). Images (PNG, ICO) are compressed already.
 */
const PRECOMPRESSED_FILES = /\.(?:html|js|mjs|css|json|svg|txt|wasm|webmanifest)$/;

/**
 * Page loads the service worker must leave to the server, never answering them with its copy of
 * index.html: the server's own routes (apps/server: the API under /api, with its docs at /api/docs,
 * and the Prometheus metrics at /metrics), and, as the server's own fallback does
 * (`isAppNavigation` in apps/server/src/plugins/web.ts), a path whose last segment names a file
 * (`/manifest.json`: a 404 from the server, not the app). Matched against the path and query.
 */
const NOT_APP_PAGES = [/^\/api(?:[/?]|$)/, /^\/metrics(?:[/?]|$)/, /^[^?]*\/[^/?]*\.[^/?]*(?:\?.*)?$/];

/**
 * The installable app (issue 12 item 1, docs/decisions/055): the web app manifest
 * (`manifest.webmanifest`) and a Workbox service worker (`sw.js`) that precaches the whole build —
 * the shell, every lazy screen's chunk, the QR decoder's chunk and its self-hosted .wasm, the German
 * texts, the icons — so that after one online visit the app starts with no server. Page loads of the
 * app's routes are answered with the precached index.html; the server's own routes are not, and no
 * API answer is ever cached by the worker (it has no runtime caching). The worker is registered by
 * `lib/pwa/service-worker.ts` (not in the native app), with an update prompt (`registerType:
 * 'prompt'`): a new version never reloads the page by itself, so never in the middle of a scan.
 */
const pwa = VitePWA({
  strategies: 'generateSW',
  registerType: 'prompt',
  // Registered by our own code (lib/pwa/service-worker.ts), which skips the native app.
  injectRegister: false,
  filename: 'sw.js',
  manifestFilename: 'manifest.webmanifest',
  manifest: {
    id: '/',
    name: 'Gatecheck Scanner',
    short_name: 'Gatecheck',
    description: 'Gatecheck Scanner: check event tickets at the door.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    // The light theme's header (white); the dark theme's colour is set on <meta name="theme-color">
    // by lib/theme.ts, which installed apps follow while the app runs.
    theme_color: '#ffffff',
    background_color: '#ffffff',
    icons: [
      { src: 'pwa-64x64.png', sizes: '64x64', type: 'image/png' },
      { src: 'pwa-192x192.png', sizes: '192x192', type: 'image/png' },
      { src: 'pwa-512x512.png', sizes: '512x512', type: 'image/png' },
      { src: 'maskable-icon-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // Everything the app needs to start and scan; not the .br/.gz siblings (the server picks those).
    globPatterns: ['**/*.{html,js,mjs,css,wasm,json,svg,png,ico,txt,woff2}'],
    // The build manifest (a bench reads it) is no part of the app.
    globIgnores: ['.vite/**'],
    navigateFallback: 'index.html',
    navigateFallbackDenylist: NOT_APP_PAGES,
    // No runtimeCaching: API answers are never stored by the worker (lists offline come from the
    // query cache's IndexedDB copy, docs/decisions/056).
    cleanupOutdatedCaches: true,
    // The first worker controls the page it was installed from at once, so a lazy screen not yet
    // loaded comes from the precache if the network goes on that first visit. Later versions wait
    // (no skipWaiting): they take over only on the 'Reload' tap (lib/pwa/service-worker.ts).
    clientsClaim: true,
    // The zxing .wasm is about 1 MB; the default 2 MiB limit is kept as the ceiling it must stay under.
    maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
  },
});

/**
 * Vite build of the scanner app. `/api` is proxied to the local server in development so the app and
 * the API share one origin (cookies work as in production, where the server serves both). React 19
 * on react-dom everywhere (docs/decisions/081): `@vitejs/plugin-react` compiles JSX to React's
 * automatic runtime and gives the dev server React Fast Refresh.
 */
export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // The sign-in screen painted from index.html before the JavaScript arrives (docs/decisions/082).
    prerenderSignIn(),
    // The boot script and the entry's stylesheet inline, the app's scripts after the first paint (docs/decisions/099).
    bootInIndexHtml(),
    pwa,
    compression({
      include: PRECOMPRESSED_FILES,
      // Below about 1 kB the headers outweigh what compression saves.
      threshold: 1024,
      // Brotli at its maximum (zlib's default, quality 11) and gzip at 9: compressed once at build
      // time, so the slowest setting costs nothing per request.
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
      logLevel: 'silent',
    }),
    // Size report of every chunk and the modules in it (raw, gzip, brotli): open
    // apps/web/build-report/bundle.html after a build. Outside dist, so the server never serves it.
    visualizer({
      filename: fileURLToPath(new URL('./build-report/bundle.html', import.meta.url)),
      template: 'treemap',
      gzipSize: true,
      brotliSize: true,
      title: 'Gatecheck web app: bundle sizes',
    }),
  ],
  resolve: {
    alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }],
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080' },
    },
  },
  build: {
    // The browser floor (docs/decisions/090; the same as package.json's browserslist, which the lint
    // checks APIs against): Android System WebView 99 and iOS 15.5 with their desktop engines. Oxc
    // lowers newer JavaScript syntax and Lightning CSS newer CSS (oklch colours to hex) for them.
    target: ['chrome99', 'edge99', 'safari15.5', 'ios15.5'],
    outDir: 'dist',
    // dist/.vite/manifest.json: the chunk graph `npm run bench:bundle` reads to find the first load.
    manifest: true,
    // The first load in one file, the main job's screens in two (chunking.ts, docs/decisions/110).
    rolldownOptions: { output: { codeSplitting: appCodeSplitting() } },
  },
});
