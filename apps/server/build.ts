/**
 * Compiles the server for `npm start` (issue 13 item 3, docs/decisions/049, 067): esbuild bundles
 * src/server.ts, our workspace packages (@gatecheck/contract, TypeScript sources) and the npm
 * packages it imports into one ES module, dist/server.js (+ source map), so that a start loads one
 * file instead of about 1,500 modules; the few packages in `EXTERNAL_PACKAGES` stay imports from
 * node_modules.
 *
 * Files found next to the sources (the Drizzle migrations in ../drizzle, the web app in
 * ../../web/dist) keep working: each bundled module's `import.meta.url` is rewritten to the URL of
 * its source file, computed from the bundle's own location, so `new URL('../../drizzle',
 * import.meta.url)` means what it means under tsx.
 *
 * Skips the build when dist/build-info.json records the same SHA-256 of every input (sources,
 * this script, the lockfile) as now. Writes through a temporary file and a rename, so two servers
 * started at once (the end-to-end workers) never run a half-written bundle. Run with
 * `node build.ts` (Node 24 strips the types); `--force` builds even when nothing changed.
 * Exits 1 when esbuild reports an error.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const SERVER_DIR = fileURLToPath(new URL('.', import.meta.url));
const REPO_ROOT = resolve(SERVER_DIR, '../..');
const DIST_DIR = join(SERVER_DIR, 'dist');
const OUT_FILE = join(DIST_DIR, 'server.js');
const INFO_FILE = join(DIST_DIR, 'build-info.json');
/** Inputs that change the bundle without being one of its modules. */
const EXTRA_INPUTS = [fileURLToPath(import.meta.url), join(REPO_ROOT, 'package-lock.json')];

interface BuildInfo {
  /** SHA-256 over every input file's path and content. */
  inputsHash: string;
  /** Input files, relative to the repo root. */
  inputs: string[];
}

function hashOf(files: string[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    hash.update(relative(REPO_ROOT, file));
    hash.update('\0');
    hash.update(existsSync(file) ? readFileSync(file) : 'missing');
    hash.update('\0');
  }
  return hash.digest('hex');
}

function isUpToDate(): boolean {
  if (!existsSync(OUT_FILE) || !existsSync(INFO_FILE)) return false;
  try {
    const info = JSON.parse(readFileSync(INFO_FILE, 'utf8')) as BuildInfo;
    return hashOf(info.inputs.map((file) => join(REPO_ROOT, file))) === info.inputsHash;
  } catch {
    return false;
  }
}

/**
 * npm packages that stay imports from node_modules, because they read files next to their own
 * code at run time (WebAssembly, fonts, worker scripts, static assets), load a native addon, or are
 * optional and absent. Every other package is bundled (docs/decisions/067).
 */
const EXTERNAL_PACKAGES = [
  '@electric-sql/pglite', // pglite.wasm and pglite.data beside its code
  '@fastify/swagger', // reads its package.json at run time
  '@fastify/swagger-ui', // the Swagger UI files it serves
  '@node-rs/argon2', // a native addon
  'pdfkit', // its fonts' .afm files
  'piscina', // starts its worker threads from its own worker.js
  'pino', // transports run in worker threads from their own files
  'pino-pretty',
  'thread-stream',
  'pg-native', // optional in pg, not installed
];

/** The packages in EXTERNAL_PACKAGES stay imports (a subpath like `@electric-sql/pglite/vector` too). */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      EXTERNAL_PACKAGES.some((name) => args.path === name || args.path.startsWith(`${name}/`)) ? { path: args.path, external: true } : undefined,
    );
  },
};

/**
 * Bundled CommonJS packages call `require` (Node's built-ins) and read `__filename`/`__dirname`; an
 * ES module has neither, so the bundle defines them first.
 */
const COMMONJS_GLOBALS = [
  "import { createRequire as __gatecheckCreateRequire } from 'node:module';",
  "import { fileURLToPath as __gatecheckFileURLToPath } from 'node:url';",
  'const require = __gatecheckCreateRequire(import.meta.url);',
  'const __filename = __gatecheckFileURLToPath(import.meta.url);',
  "const __dirname = __gatecheckFileURLToPath(new URL('.', import.meta.url));",
].join('\n');

/** `import.meta.url` of each of our modules becomes its source file's URL, relative to the bundle. */
const sourceImportMetaUrl: Plugin = {
  name: 'source-import-meta-url',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.tsx?$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url') || args.path.split(sep).includes('node_modules')) return undefined;
      const fromBundle = relative(DIST_DIR, args.path).split(sep).join('/');
      const contents = source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`);
      return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

if (!process.argv.includes('--force') && isUpToDate()) {
  console.log('Server build is up to date (apps/server/dist/server.js).');
} else {
  const startedAt = performance.now();
  const result = await build({
    entryPoints: [join(SERVER_DIR, 'src/server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    outfile: OUT_FILE,
    sourcemap: 'linked',
    // Stack traces need only the mappings (the sources are in the repo); without the sources the map
    // is a third of the size, and Node reads it at every start (--enable-source-maps).
    sourcesContent: false,
    metafile: true,
    write: false,
    logLevel: 'warning',
    banner: { js: COMMONJS_GLOBALS },
    plugins: [externalPackages, sourceImportMetaUrl],
  });
  mkdirSync(DIST_DIR, { recursive: true });
  const suffix = `.${process.pid}.tmp`;
  // The map first: a server started between the two renames finds the new code's map.
  for (const output of [...result.outputFiles].sort((a) => (a.path.endsWith('.map') ? -1 : 1))) {
    mkdirSync(dirname(output.path), { recursive: true });
    writeFileSync(output.path + suffix, output.contents);
    renameSync(output.path + suffix, output.path);
  }
  // esbuild names inputs relative to the working directory; store them relative to the repo root.
  const absoluteInputs = Object.keys(result.metafile.inputs).map((file) => resolve(process.cwd(), file));
  const info: BuildInfo = {
    inputsHash: hashOf([...absoluteInputs, ...EXTRA_INPUTS]),
    inputs: [...absoluteInputs, ...EXTRA_INPUTS].map((file) => relative(REPO_ROOT, file)),
  };
  writeFileSync(INFO_FILE + suffix, `${JSON.stringify(info, null, 2)}\n`);
  renameSync(INFO_FILE + suffix, INFO_FILE);
  const kB = (readFileSync(OUT_FILE).length / 1000).toFixed(0);
  console.log(`Server built in ${Math.round(performance.now() - startedAt)} ms: apps/server/dist/server.js (${kB} kB, ${absoluteInputs.length} modules).`);
}
