/**
 * The first load of the built web app (apps/web/dist): which files the browser must fetch before the
 * sign-in form is usable. Read from `dist/index.html` (its module scripts, module preloads, classic
 * scripts and stylesheets) and Vite's build manifest (`dist/.vite/manifest.json`: the entry chunk and
 * its static imports, recursively). Used by `npm run bench:bundle` (the sizes) and by the end-to-end
 * check that the first load runs React on react-dom (e2e/login-first-paint.spec.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/web/dist: the production build. */
export const DIST_DIR = fileURLToPath(new URL('../dist', import.meta.url));
/** Vite's build manifest in DIST_DIR (`build.manifest`, vite.config.ts). */
export const MANIFEST_FILE = join(DIST_DIR, '.vite', 'manifest.json');

/** One chunk of Vite's build manifest (https://vite.dev/guide/backend-integration). */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/**
 * Files index.html makes the browser fetch up front: module scripts and module preloads (the
 * bundle's graph; since decision 099 in an inert template that the boot script starts after the
 * first paint; those marked `data-path` are a signed-in screen's and not counted), classic scripts
 * (outside the graph) and stylesheets (the entry's is inline since 099, named by a disabled
 * `<link>` that is never fetched).
 */
export function filesNamedByIndexHtml(html: string): { scripts: Set<string>; classicScripts: Set<string>; styles: Set<string> } {
  const scripts = new Set<string>();
  const classicScripts = new Set<string>();
  const styles = new Set<string>();
  const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const isScript = tag.startsWith('<script');
    const isModuleScript = isScript && attribute(tag, 'type') === 'module';
    const rel = attribute(tag, 'rel');
    const url = isScript ? attribute(tag, 'src') : attribute(tag, 'href');
    if (!url?.startsWith('/') || url.startsWith('//')) continue;
    // A signed-in screen's code, started only at its path with a stored session (decision 099): not the first load.
    if (attribute(tag, 'data-path') !== undefined) continue;
    const file = url.slice(1);
    if (isModuleScript || rel === 'modulepreload') scripts.add(file);
    else if (isScript) classicScripts.add(file);
    else if (rel === 'stylesheet') styles.add(file);
  }
  return { scripts, classicScripts, styles };
}

/** The entry chunk and its static import graph: the JavaScript and CSS files loaded before the app runs. */
export function firstLoadOf(manifest: Manifest): { scripts: Set<string>; styles: Set<string>; lazy: Set<string> } {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry && chunk.src === 'index.html');
  if (!entry) throw new Error('The build manifest has no entry chunk for index.html.');
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const lazyKeys = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
    for (const dynamic of chunk.dynamicImports ?? []) lazyKeys.add(dynamic);
  };
  visit(entry[0]);
  const lazy = new Set([...lazyKeys].map((key) => manifest[key]?.file).filter((file): file is string => file !== undefined && !scripts.has(file)));
  return { scripts, styles, lazy };
}


/** The text of each inline script of index.html (the boot script, docs/decisions/099): first-load JavaScript in the page itself. */
export function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
}

/** The build's first load, from DIST_DIR. @throws {Error} when index.html or the manifest is missing, or when the two disagree. */
export function readFirstLoad(): { scripts: Set<string>; classicScripts: Set<string>; styles: Set<string>; lazy: Set<string> } {
  const manifest = JSON.parse(readFileSync(MANIFEST_FILE, 'utf8')) as Manifest;
  const fromHtml = filesNamedByIndexHtml(readFileSync(join(DIST_DIR, 'index.html'), 'utf8'));
  const fromManifest = firstLoadOf(manifest);
  const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((file) => b.has(file));
  if (!sameSet(fromHtml.scripts, fromManifest.scripts) || !sameSet(fromHtml.styles, fromManifest.styles)) {
    throw new Error(`index.html and the build manifest disagree about the first load: ${JSON.stringify({ indexHtml: [...fromHtml.scripts, ...fromHtml.styles], manifest: [...fromManifest.scripts, ...fromManifest.styles] })}`);
  }
  return { scripts: fromManifest.scripts, classicScripts: fromHtml.classicScripts, styles: fromManifest.styles, lazy: fromManifest.lazy };
}
