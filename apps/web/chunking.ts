/**
 * How the build cuts the app into chunks (rolldown's `output.codeSplitting`, docs/decisions/110):
 * five groups of modules, each one file, highest priority first; rolldown's automatic splitting for
 * the rest (the management screens, the decoder and its .wasm, German, sonner, ...).
 *
 * 1. **`first-load`** (`$initial`: the entry and everything it imports statically) is the entry
 *    chunk alone. Left to itself rolldown split it into a dozen files by which lazy screens share
 *    each module (React, React Router with `config/paths.ts`, the contract's paths...; the /enroll
 *    route's imports tipped it). Every file boundary costs gzip and a request: 140.8 kB gzip in 12
 *    files, 135.5 kB in one.
 * 2. **`screen-base`**: what every screen but sign-in renders with (TanStack Query, the query layer
 *    and client, the other screens' English texts), preloaded by an idle sign-in screen.
 * 3. **`app-wide`**: what the 'Offline' and API-version strips need beyond the first load (the
 *    health probe, their icons); every start loads it, so it holds nothing else.
 * 4. **`open-and-main`**: what a screen before sign-in (forgot password, sign-up, /enroll, ...)
 *    shares with the main job, so those screens never download the main job.
 * 5. **`main-job`**: the three choice screens and the scanner with all they import. A phone
 *    reopening /scanner with a stored session fetched about 45 files for them; now four.
 *
 * Groups 4 and 5 are the static closures of their screens' modules, as rolldown's graph lists the
 * imports: through a barrel (the contract's index) that is more than the code uses, so a few small
 * modules only the management screens use land in `main-job` too. Groups 2 and 3 are named module
 * by module instead, since both load on a signed-out phone and must stay small.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import type { Rolldown } from 'vite';

type CodeSplittingOptions = Exclude<NonNullable<Rolldown.OutputOptions['codeSplitting']>, boolean>;
type ChunkingContext = Parameters<Extract<NonNullable<NonNullable<CodeSplittingOptions['groups']>[number]['name']>, (...args: never[]) => unknown>>[1];

const SRC_DIR = fileURLToPath(new URL('./src/', import.meta.url));

/**
 * What every screen but sign-in renders with (src/app/lazy-screens.ts `withQueryLayer`): TanStack
 * Query, the query layer, the app's query client and the other screens' English texts. The sign-in
 * screen preloads it once idle (docs/decisions/098), so it is named module by module rather than
 * by what it imports (through `lib/api-client.ts` that would be the whole contract).
 */
const SCREEN_BASE = /[\\/]node_modules[\\/]@tanstack[\\/](?:query-core|react-query)[\\/]|[\\/]src[\\/](?:app[\\/]query-layer\.tsx|lib[\\/]query-client\.ts|lib[\\/]retry-policy\.ts|lib[\\/]i18n[\\/]locales[\\/]en-screens\.json)$/;

/** The screens of the main job (src/app/lazy-screens.ts `prefetchSignedInScreens`): the three choices and the scanner. */
const MAIN_JOB_ROOTS = [
  'app/routes/organization-select-route.tsx',
  'app/routes/event-select-route.tsx',
  'app/routes/day-select-route.tsx',
  'app/routes/scanner-route.tsx',
].map((path) => SRC_DIR + path);
/**
 * What the app loads on its own on every screen, sign-in included, after the first load: the
 * 'Offline' strip with its health probe, and the API-version strip (src/components). Their imports
 * stay out of the groups below, or a signed-out phone would download the main job for them.
 */
const APP_WIDE_ROOTS = ['components/offline-strip.tsx', 'components/api-version-strip.tsx'].map((path) => SRC_DIR + path);

/** The screens open before sign-in (lazy; sign-in itself is in the first load). */
const OPEN_SCREEN_ROOTS = [
  'app/routes/forgot-password-route.tsx',
  'app/routes/reset-password-route.tsx',
  'app/routes/sign-up-route.tsx',
  'app/routes/invitation-route.tsx',
  'app/routes/enroll-route.tsx',
  'app/routes/not-found-route.tsx',
].map((path) => SRC_DIR + path);

const LUCIDE_ESM_DIR = fileURLToPath(new URL('../../node_modules/lucide-react/dist/esm/', import.meta.url));
let lucideIconFiles: Map<string, string> | undefined;

/**
 * The module ids of the lucide-react icons `code` imports by name, read from the package's barrel
 * (`export { default as WifiOff, ... } from './icons/wifi-off.mjs'`; aliases included).
 */
function lucideIconsOf(code: string): string[] {
  const names = [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["']/g)].flatMap((match) => (match[1] ?? '').split(','));
  if (names.length === 0) return [];
  if (!lucideIconFiles) {
    lucideIconFiles = new Map();
    const barrel = readFileSync(`${LUCIDE_ESM_DIR}lucide-react.mjs`, 'utf8');
    for (const [, exported = '', file = ''] of barrel.matchAll(/export\s*\{([^}]*)\}\s*from\s*'\.\/(icons\/[^']+)'/g)) {
      for (const name of exported.matchAll(/as\s+(\w+)/g)) lucideIconFiles.set(name[1] ?? '', `${LUCIDE_ESM_DIR}${file}`);
    }
  }
  const files = lucideIconFiles;
  return names.map((name) => files.get(name.trim().split(/\s+as\s+/)[0] ?? '')).filter((file): file is string => file !== undefined);
}

/**
 * The modules `roots` import statically, directly or not, themselves included.
 * @throws {Error} when a root is not in the module graph (a moved or renamed screen: update the lists above)
 */
function staticClosure(roots: readonly string[], context: ChunkingContext, { ownCodeOnly = false } = {}): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id) || (ownCodeOnly && !id.startsWith(SRC_DIR))) return;
    seen.add(id);
    // lucide-react's icons come through its barrel: name the module of each icon imported.
    if (ownCodeOnly) for (const icon of lucideIconsOf(context.getModuleInfo(id)?.code ?? '')) seen.add(icon);
    for (const imported of context.getModuleInfo(id)?.importedIds ?? []) visit(imported);
  };
  for (const root of roots) {
    const info = context.getModuleInfo(root);
    if (!info) throw new Error(`chunking.ts: ${root} is not in the module graph; update its lists of screens.`);
    visit(info.id);
  }
  return seen;
}

/**
 * The codeSplitting options for `build.rolldownOptions.output`. The module sets are worked out
 * once per build from the first module rolldown asks about.
 */
export function appCodeSplitting(): CodeSplittingOptions {
  let sets: { appWide: Set<string>; mainJob: Set<string>; openScreens: Set<string> } | undefined;
  const setsOf = (context: ChunkingContext) => {
    if (!sets) {
      const appWide = staticClosure(APP_WIDE_ROOTS, context, { ownCodeOnly: true });
      // The strips themselves stay in chunks of their own (each loads when it shows).
      for (const root of APP_WIDE_ROOTS) appWide.delete(context.getModuleInfo(root)?.id ?? root);
      sets = { appWide, mainJob: staticClosure(MAIN_JOB_ROOTS, context), openScreens: staticClosure(OPEN_SCREEN_ROOTS, context) };
    }
    return sets;
  };
  return {
    groups: [
      // Highest priority first: a module is taken by the first group that names it.
      { name: 'first-load', tags: ['$initial'], priority: 5 },
      { name: 'screen-base', test: SCREEN_BASE, priority: 4 },
      { debugName: 'app-wide', name: (id, context) => (setsOf(context).appWide.has(id) ? 'app-wide' : null), priority: 3 },
      {
        debugName: 'open-and-main',
        name: (id, context) => {
          const { mainJob, openScreens } = setsOf(context);
          return mainJob.has(id) && openScreens.has(id) ? 'open-and-main' : null;
        },
        priority: 2,
      },
      { debugName: 'main-job', name: (id, context) => (setsOf(context).mainJob.has(id) ? 'main-job' : null), priority: 1 },
    ],
  };
}
