/**
 * `npx tsx apps/web/bench/dependency-cost.ts` (from the repository root): what each dependency of the
 * sign-in screen costs on its own, for choosing what to take off the first load (issue 13,
 * docs/decisions/061). For each probe, a tiny module importing just what the app uses is built with
 * Vite (production, minified; React and react-dom left out except in the React probe), and its
 * JavaScript is measured in gzip level 9 bytes (1 kB = 1000 bytes), as `bench:bundle` does.
 * Standalone sizes: shared helpers are counted in each probe, so they do not add up exactly.
 * Prints a table; writes the probe modules under node_modules/.cache/dependency-cost.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

const WEB_DIR = fileURLToPath(new URL('..', import.meta.url));
const PROBE_DIR = join(WEB_DIR, 'node_modules', '.cache', 'dependency-cost');
const REACT = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client'];

/** Probe name → the module built for it (each keeps its imports alive through `window.kept`). */
const PROBES: Record<string, string> = {
  'react + react-dom (client)': `import { createRoot } from 'react-dom/client'; import { createElement } from 'react'; createRoot(document.body).render(createElement('p', null, 'x'));`,
  'React Router, data router': `import { createBrowserRouter, RouterProvider, Navigate, Outlet, Link, useLocation, useNavigate } from 'react-router'; window.kept = [createBrowserRouter, RouterProvider, Navigate, Outlet, Link, useLocation, useNavigate];`,
  'React Router, declarative': `import { BrowserRouter, useRoutes, Navigate, Outlet, Link, useLocation, useNavigate } from 'react-router'; window.kept = [BrowserRouter, useRoutes, Navigate, Outlet, Link, useLocation, useNavigate];`,
  'zod classic, object schemas': `import { z } from 'zod'; const S = z.object({ a: z.string(), b: z.string().optional(), c: z.boolean().nullish(), d: z.number().int() }); window.kept = S.safeParse({});`,
  'zod/mini, the same schemas': `import { z } from 'zod/mini'; const S = z.object({ a: z.string(), b: z.optional(z.string()), c: z.nullish(z.boolean()), d: z.int() }); window.kept = z.safeParse(S, {});`,
  // Without i18next-browser-languagedetector since decision 098 (the app reads navigator.languages itself).
  'i18next + react-i18next': `import i18next from 'i18next'; import { initReactI18next, useTranslation } from 'react-i18next'; window.kept = [i18next, initReactI18next, useTranslation];`,
  'TanStack Query': `import { QueryClient, QueryClientProvider, useQuery, useMutation, useQueryClient, queryOptions } from '@tanstack/react-query'; window.kept = [QueryClient, QueryClientProvider, useQuery, useMutation, useQueryClient, queryOptions];`,
  sonner: `import { Toaster, toast } from 'sonner'; window.kept = [Toaster, toast];`,
  'tailwind-merge': `import { twMerge } from 'tailwind-merge'; window.kept = twMerge;`,
  'Capacitor core': `import { Capacitor, registerPlugin } from '@capacitor/core'; window.kept = [Capacitor, registerPlugin];`,
  'lucide-react, three icons': `import { Sun, Moon, Monitor } from 'lucide-react'; window.kept = [Sun, Moon, Monitor];`,
};

/** gzip-9 bytes of the probe's built JavaScript, and its raw bytes. */
async function measure(name: string, code: string): Promise<{ raw: number; gzip: number }> {
  const entry = join(PROBE_DIR, `${Object.keys(PROBES).indexOf(name)}.js`);
  writeFileSync(entry, code);
  const result = await build({
    root: WEB_DIR,
    configFile: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: true,
      lib: { entry, formats: ['es'] },
      rollupOptions: { external: name.startsWith('react +') ? [] : REACT },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result as Rollup.RollupOutput]).flatMap((output) => output.output);
  const javascript = outputs.flatMap((chunk) => (chunk.type === 'chunk' ? [chunk.code] : [])).join('\n');
  return { raw: Buffer.byteLength(javascript), gzip: gzipSync(javascript, { level: 9 }).length };
}

mkdirSync(PROBE_DIR, { recursive: true });
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const rows: string[][] = [];
for (const [name, code] of Object.entries(PROBES)) {
  const { raw, gzip } = await measure(name, code);
  rows.push([name, kB(raw), kB(gzip)]);
}
const widths = [0, 1, 2].map((column) => Math.max(...[['dependency', 'raw', 'gzip'], ...rows].map((row) => row[column]?.length ?? 0)));
for (const row of [['dependency', 'raw', 'gzip'], ...rows]) {
  console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  '));
}
