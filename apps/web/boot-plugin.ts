/**
 * Vite plugin: index.html's `<head>` as the first paint needs it (docs/decisions/099). In `vite
 * build`, after the prerender (prerender-plugin.ts) and Vite's own tags:
 *
 * - **The boot script inline**: src/boot/boot.ts built on its own (Vite library build, one IIFE,
 *   minified, for the app's browser floor) and put in place of the `<!-- gatecheck:boot -->`
 *   placeholder as an inline `<script>`. The server allows it by its hash (apps/server's
 *   Content-Security-Policy reads index.html's inline scripts at start: `inlineScriptHashesOf`);
 *   no 'unsafe-inline'.
 * - **The entry's stylesheet inline**: Vite's `<link rel="stylesheet">` becomes a `<style
 *   data-inlined-from="/assets/…css">` with the same CSS (style-src already allows inline styles,
 *   which the toasts need; no hash there: one would turn that allowance off), followed by the same
 *   `<link>` made `disabled`: a disabled stylesheet is not fetched, and Vite's preload helper, which
 *   loads a lazy chunk's CSS unless a `link[rel=stylesheet]` of that address is in the page, finds it
 *   there and does not load the file again (CSS dependencies never reach `resolveDependencies`).
 * - **The app's scripts after the first paint**: Vite's `<script type="module">` and
 *   `<link rel="modulepreload">`s move into `<template id="app-scripts">`, which the boot script
 *   starts once the page has painted (src/boot/app-scripts.ts).
 * - **The screen of a stored session preloaded with the app**: for the screens a signed-in phone
 *   reopens (`SIGNED_IN_SCREENS`: the scanner and the choices before it), the route's chunk and
 *   its static imports are in the template too, as modulepreloads marked `data-path`; the boot
 *   script starts them only at that path with a stored session (`<html data-boot="loading">`), so
 *   the scanner's code downloads beside the app's instead of after the app has run and the session
 *   check (GET /api/users/me) has answered.
 * - **No paint of a half-parsed page**: with nothing render-blocking left in `<head>`, Chromium may
 *   paint while the body (about 13 kB of prerendered HTML) is still being parsed, and the sign-in
 *   card, centred on the screen, then moves as the rest of it arrives (a layout shift of about 0.1,
 *   seen on a busy phone-like CPU). `<link rel="expect" href="#prerendered-end" blocking="render">`
 *   holds the first paint until the empty `#prerendered-end` at the end of the body is parsed, as
 *   the render-blocking scripts used to (Chromium 124+; elsewhere the link is ignored).
 *
 * Nothing changes on the development server (the placeholder is a comment there).
 * @throws {Error} (fails the build) when the placeholder, the entry's module script or stylesheet is
 *   missing, or the boot script's code would end its own `<script>` element
 */
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { build, type Plugin, type Rolldown } from 'vite';

const WEB_DIR = fileURLToPath(new URL('.', import.meta.url));
/** Where index.html's source wants the boot script. */
export const BOOT_PLACEHOLDER = '<!-- gatecheck:boot -->';
/** Paths of the screens a phone with a stored session reopens, and their route modules (src/app/lazy-screens.ts). */
const SIGNED_IN_SCREENS: Record<string, string> = {
  '/organization-select': 'src/app/routes/organization-select-route.tsx',
  '/event-select': 'src/app/routes/event-select-route.tsx',
  '/day-select': 'src/app/routes/day-select-route.tsx',
  '/scanner': 'src/app/routes/scanner-route.tsx',
};

/**
 * The files of the chunk that holds `routeModule` and of its static imports, less `loaded` (the
 * entry's first load). @throws {Error} when no chunk holds that module (a renamed route).
 */
function routeChunkFiles(bundle: Rolldown.OutputBundle, routeModule: string, loaded: ReadonlySet<string>): string[] {
  const chunks = Object.values(bundle).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  // The route's module is the facade of a chunk of its own, or one module of a group's chunk (chunking.ts).
  const route = chunks.find((chunk) => chunk.moduleIds.some((id) => id.replaceAll('\\', '/').endsWith(`/${routeModule}`)));
  if (!route) throw new Error(`No chunk holds ${routeModule}: update SIGNED_IN_SCREENS in boot-plugin.ts.`);
  const files: string[] = [];
  const visit = (fileName: string) => {
    if (loaded.has(fileName) || files.includes(fileName)) return;
    files.push(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type === 'chunk') for (const imported of chunk.imports) visit(imported);
  };
  visit(route.fileName);
  return files;
}

/** The id of the empty element after the prerendered body that the first paint waits for. */
const PRERENDERED_END_ID = 'prerendered-end';
/** The entry's stylesheet as Vite names it (the entry is index.html's main.tsx: `index-[hash].css`). */
const ENTRY_STYLESHEET = /^assets\/index-[\w-]+\.css$/;

/** Builds src/boot/boot.ts into one minified IIFE for `target`; resolves to its code. */
async function buildBootScript(mode: string, target: string[]): Promise<string> {
  const output = await build({
    configFile: false,
    root: WEB_DIR,
    mode,
    logLevel: 'warn',
    resolve: { alias: [{ find: '@', replacement: join(WEB_DIR, 'src') }] },
    build: {
      write: false,
      target,
      minify: true,
      copyPublicDir: false,
      lib: { entry: join(WEB_DIR, 'src/boot/boot.ts'), formats: ['iife'], name: 'gatecheckBoot' },
    },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((result) => result.output).find((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  if (!chunk) throw new Error('The boot script build produced no chunk.');
  const code = chunk.code.trim();
  if (/<\/script|<!--/i.test(code)) throw new Error('The boot script holds "</script" or "<!--" and cannot be inlined.');
  return code;
}

/** The plugin (build only). `target`: the app's `build.target` (the browser floor). */
export function bootInIndexHtml(): Plugin {
  let mode = 'production';
  let target: string[] = [];
  return {
    name: 'gatecheck:boot-in-index-html',
    apply: 'build',
    configResolved(config) {
      mode = config.mode;
      const configured = config.build.target;
      target = Array.isArray(configured) ? configured : typeof configured === 'string' ? [configured] : [];
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, context) {
        if (!html.includes(BOOT_PLACEHOLDER)) throw new Error(`index.html must hold ${BOOT_PLACEHOLDER} in <head>.`);
        const bundle = context.bundle;
        if (!bundle) throw new Error('The boot plugin runs in the build only.');

        const stylesheet = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/.exec(html);
        const css = stylesheet ? bundle[stylesheet[1] ?? ''] : undefined;
        if (!stylesheet?.[1] || !ENTRY_STYLESHEET.test(stylesheet[1]) || css?.type !== 'asset') throw new Error("index.html has no stylesheet of the entry's to inline.");
        const cssText = typeof css.source === 'string' ? css.source : new TextDecoder().decode(css.source);
        if (/<\/style/i.test(cssText)) throw new Error('The stylesheet holds "</style" and cannot be inlined.');

        const appTags = [...html.matchAll(/<link rel="modulepreload" crossorigin href="[^"]+">|<script type="module" crossorigin src="[^"]+"><\/script>/g)].map((match) => match[0]);
        if (!appTags.some((tag) => tag.startsWith('<script'))) throw new Error('index.html has no module script of the entry.');

        const disabledLink = stylesheet[0].replace(/>$/, ' disabled>');
        const loaded = new Set(appTags.map((tag) => /(?:src|href)="\/([^"]+)"/.exec(tag)?.[1] ?? ''));
        for (const [path, routeModule] of Object.entries(SIGNED_IN_SCREENS)) {
          for (const file of routeChunkFiles(bundle, routeModule, loaded)) appTags.push(`<link rel="modulepreload" crossorigin href="/${file}" data-path="${path}">`);
        }

        let page = html.replace(stylesheet[0], `<style data-inlined-from="/${stylesheet[1]}">${cssText}</style>\n    ${disabledLink}`);
        for (const tag of appTags) page = page.replace(new RegExp(`\\s*${tag.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`), '');
        if (!page.includes('</body>')) throw new Error('index.html has no </body>.');
        page = page.replace('</body>', `  <div id="${PRERENDERED_END_ID}" hidden></div>\n  </body>`);
        const bootScript = await buildBootScript(mode, target);
        return page.replace(
          BOOT_PLACEHOLDER,
          [
            `<link rel="expect" href="#${PRERENDERED_END_ID}" blocking="render">`,
            `<script>${bootScript}</script>`,
            `<template id="app-scripts">${appTags.join('')}</template>`,
          ].join('\n    '),
        );
      },
    },
  };
}
