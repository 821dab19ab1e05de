/**
 * Vite plugin: the sign-in screen prerendered into the built index.html (docs/decisions/082).
 *
 * In `vite build`, once the client bundle is written and before index.html is emitted (so the
 * service worker's precache, the `.br`/`.gz` siblings and the native app's copy all get the final
 * page), it builds `src/app/prerender.tsx` for Node (Vite's SSR build, same aliases and JSX as the
 * app; React, React Router and i18next are the packages the app ships), runs its
 * `prerenderedBody()` (React's `renderToString`) and puts the result in place of index.html's empty
 * `<div id="root"></div>`. The development server is untouched (the app renders into the empty root).
 *
 * @throws {Error} (fails the build) when index.html has no `<div id="root"></div>` or the render fails
 */
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';

const WEB_DIR = fileURLToPath(new URL('.', import.meta.url));
const EMPTY_ROOT = '<div id="root"></div>';

/** Builds and runs app/prerender.tsx; resolves to the markup of the prerendered body. */
async function renderPrerenderedBody(mode: string): Promise<string> {
  // Under apps/web, so that Node finds the packages the render imports (node_modules).
  const cacheDir = join(WEB_DIR, 'node_modules', '.cache');
  await mkdir(cacheDir, { recursive: true });
  const outDir = await mkdtemp(join(cacheDir, 'gatecheck-prerender-'));
  try {
    await build({
      configFile: false,
      root: WEB_DIR,
      mode,
      logLevel: 'warn',
      plugins: [react()],
      resolve: { alias: [{ find: '@', replacement: join(WEB_DIR, 'src') }] },
      build: { ssr: 'src/app/prerender.tsx', outDir, emptyOutDir: true, minify: false, copyPublicDir: false },
    });
    const entry = pathToFileURL(join(outDir, 'prerender.js')).href;
    const module = (await import(entry)) as { prerenderedBody: () => Promise<string> };
    return await module.prerenderedBody();
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** The plugin (build only). */
export function prerenderSignIn(): Plugin {
  let mode = 'production';
  return {
    name: 'gatecheck:prerender-sign-in',
    apply: 'build',
    configResolved(config) {
      mode = config.mode;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        if (!html.includes(EMPTY_ROOT)) throw new Error(`index.html must hold ${EMPTY_ROOT} for the prerendered sign-in screen.`);
        const body = await renderPrerenderedBody(mode);
        return html.replace(EMPTY_ROOT, body);
      },
    },
  };
}
