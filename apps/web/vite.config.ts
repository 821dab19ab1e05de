import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/**
 * Files the server may send compressed: text assets and the QR decoder's .wasm (954 kB raw, about a
 * third in brotli). Each gets `.br` and `.gz` siblings at build time, served by the server's
 * @fastify/static `preCompressed` to browsers that accept them (issue 15 item 5,
 * docs/decisions/024). Images (PNG, ICO) are compressed already.
 */
const PRECOMPRESSED_FILES = /\.(?:html|js|mjs|css|json|svg|txt|wasm|webmanifest)$/;

/**
 * Vite build of the scanner app. `/api` is proxied to the local server in development so the app and
 * the API share one origin (cookies work as in production, where the server serves both).
 */
export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
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
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080' },
    },
  },
  build: {
    outDir: 'dist',
    // dist/.vite/manifest.json: the chunk graph `npm run bench:bundle` reads to find the first load.
    manifest: true,
  },
});
