/**
 * The sign-in screen painted from HTML (docs/decisions/081 and 082): React on react-dom in the built
 * first load; /login's SPEC §2 texts in the HTML itself (JavaScript off); a German device that never
 * paints the English subtitle, before or after React hydrates the page; typing into the prerendered
 * form before hydration is kept and signing in works once hydrated; a stored session paints the
 * guard's 'Loading...' from the same HTML. Screenshots: e2e/artifacts/first-paint-*.png.
 *
 * "Before the JavaScript": the app's entry chunk is held back by a route until the test lets it go,
 * so what the page shows meanwhile is exactly what the HTML, the CSS and src/boot/first-paint.ts paint
 * (the page then never fires 'load' until it is let go: navigations wait for 'commit' only).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { DIST_DIR, readFirstLoad } from '../bench/first-load.ts';
import { DEMO_USER } from './support/demo-scope.ts';
import { expect, test } from './support/fixtures.ts';

const ENGLISH_SUBTITLE = 'Sign in to start scanning tickets';
const GERMAN_SUBTITLE = 'Melde dich an, um Tickets zu scannen';

/** The service worker would answer from its precache, past the route that holds the script back. */
test.use({ serviceWorkers: 'block' });

/** The built entry chunk (dist/.vite/manifest.json), as the page requests it. */
function entryChunkUrl(): string {
  const manifest = JSON.parse(readFileSync(join(DIST_DIR, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string; isEntry?: boolean }>;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('The build manifest has no entry chunk.');
  return `**/${entry.file}`;
}

/** Holds the app's entry script back until `release()` is called: the page runs no module meanwhile. */
async function holdAppScript(page: Page): Promise<{ release: () => void }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(entryChunkUrl(), async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

/**
 * Records, from before the page's own scripts, every animation frame in which `text` is rendered
 * visible (innerText skips what CSS hides), the layout shifts Chromium reports, and the page's errors.
 */
async function watchFrames(page: Page, text: string): Promise<void> {
  await page.addInitScript((watched: string) => {
    const record = { framesWithText: 0, frames: 0, layoutShift: 0 };
    Object.assign(window, { firstPaintRecord: record });
    const everyFrame = () => {
      if (document.body) {
        record.frames += 1;
        if (document.body.innerText.includes(watched)) record.framesWithText += 1;
      }
      requestAnimationFrame(everyFrame);
    };
    requestAnimationFrame(everyFrame);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) record.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  }, text);
}

function frameRecord(page: Page): Promise<{ framesWithText: number; frames: number; layoutShift: number }> {
  return page.evaluate(() => (window as unknown as { firstPaintRecord: { framesWithText: number; frames: number; layoutShift: number } }).firstPaintRecord);
}

/** The app has taken the page over (prerendered-page.ts removes `data-boot` then). */
async function waitForApp(page: Page): Promise<void> {
  await expect(page.locator('html')).not.toHaveAttribute('data-boot', /.*/);
}

/** Console errors and uncaught errors of the page (a hydration mismatch is reported as one). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('the first load runs React on react-dom, not Preact', () => {
  const { scripts } = readFirstLoad();
  const code = [...scripts].map((file) => readFileSync(join(DIST_DIR, file), 'utf8'));
  // react-dom's client names itself to React DevTools; Preact 11 marks its elements with Symbol.for('pv').
  expect(code.some((chunk) => /rendererPackageName:\s*["'`]react-dom["'`]/.test(chunk))).toBe(true);
  expect(code.filter((chunk) => /Symbol\.for\(\s*["'`]pv["'`]\s*\)|preact/i.test(chunk))).toEqual([]);
});

test('the first load is one script file; a stored session at /scanner preloads the main job in at most four more, which a signed-out start never loads (docs/decisions/110)', () => {
  // Rolldown left to itself splits what lazy screens share off the entry (React Router with
  // config/paths.ts, React, the contract's paths...): each file boundary costs gzip (0.7 kB for
  // one split) and a request. chunking.ts keeps the whole first load in the entry chunk.
  const { scripts } = readFirstLoad();
  expect([...scripts]).toEqual([expect.stringMatching(/^assets\/index-[\w-]+\.js$/)]);
  // The scanner screen's code, preloaded by the boot script beside the app's: the main job's chunk,
  // what it shares with the open screens, the query layer and the app-wide helpers, not the dozens
  // of small files automatic splitting makes (about 45, each an HTTP/1.1 request behind six per origin).
  const html = readFileSync(join(DIST_DIR, 'index.html'), 'utf8');
  const scannerPreloads = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+)" data-path="\/scanner">/g)].map((match) => match[1]);
  expect(scannerPreloads.length).toBeGreaterThan(0);
  expect(scannerPreloads.length).toBeLessThanOrEqual(4);
  // What every start loads on its own after the first load (the 'Offline' and API-version strips)
  // must not bring the main job's chunks along to a signed-out phone.
  const manifest = JSON.parse(readFileSync(join(DIST_DIR, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string; imports?: string[] }>;
  const scannerChunks = new Set(scannerPreloads);
  for (const strip of ['src/components/offline-strip.tsx', 'src/components/api-version-strip.tsx']) {
    const imported = (manifest[strip]?.imports ?? []).map((key) => manifest[key]?.file);
    expect(manifest[strip], strip).toBeDefined();
    expect(imported.filter((file) => file !== undefined && scannerChunks.has(file) && !/\/app-wide-/.test(file)), strip).toEqual([]);
  }
});

test("/scanner's preloaded code holds none of the screen's lower part: Find attendee, Recent scans, Conflicts and Radix Dialog load after its first paint (docs/decisions/119)", () => {
  const html = readFileSync(join(DIST_DIR, 'index.html'), 'utf8');
  const scannerPreloads = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+)" data-path="\/scanner">/g)].map((match) => match[1] ?? '');
  expect(scannerPreloads.length).toBeGreaterThan(0);
  const manifest = JSON.parse(readFileSync(join(DIST_DIR, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string; dynamicImports?: string[] }>;
  const lowerPart = manifest['src/app/routes/scanner-lists.tsx'];
  expect(lowerPart, 'scanner-lists.tsx is a chunk of its own').toBeDefined();
  // The scanner's preloaded code imports it on demand.
  const importers = Object.values(manifest).filter((chunk) => chunk.dynamicImports?.includes('src/app/routes/scanner-lists.tsx'));
  expect(importers.filter((chunk) => scannerPreloads.includes(chunk.file)).length).toBeGreaterThan(0);
  expect(scannerPreloads).not.toContain(lowerPart?.file);
  // Radix Dialog's focus guards and react-remove-scroll: what the sheets and dialogs bring along.
  const code = scannerPreloads.map((file) => readFileSync(join(DIST_DIR, file), 'utf8'));
  expect(code.filter((chunk) => /data-radix-focus-guard|RemoveScroll/.test(chunk))).toEqual([]);
});

test("/scanner's preloaded code builds only the schemas its first screen uses: none of the management area's, the team's, the account screens', the supervisor's, the info scan's, the live door's or a door device's (docs/decisions/128)", () => {
  const html = readFileSync(join(DIST_DIR, 'index.html'), 'utf8');
  const scannerPreloads = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+)" data-path="\/scanner">/g)].map((match) => match[1] ?? '');
  expect(scannerPreloads.length).toBeGreaterThan(0);
  // Every schema of these contract modules names itself for the OpenAPI document (`.meta({ id })`);
  // the name survives minification, so it tells which chunk builds the schema.
  const offTheFirstScreen = ['event-management', 'ticket-management', 'team', 'auth', 'supervisor', 'doors', 'live-door', 'devices'];
  const schemaIds = offTheFirstScreen.flatMap((module) =>
    [...readFileSync(new URL(`../../../packages/contract/src/${module}.ts`, import.meta.url), 'utf8').matchAll(/\.meta\(\{ id: '(\w+)'/g)].map((match) => match[1] ?? ''),
  );
  expect(schemaIds.length).toBeGreaterThan(50);
  const builtBy = (code: string, id: string) => new RegExp(`\\.meta\\(\\{id:[\`"']${id}[\`"']\\}\\)`).test(code);
  // Each is built somewhere (the pattern still finds them in the build)...
  const everyChunk = readdirSync(join(DIST_DIR, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(DIST_DIR, 'assets', file), 'utf8'));
  expect(schemaIds.filter((id) => !everyChunk.some((code) => builtBy(code, id)))).toEqual([]);
  // ...but not by what a stored session at /scanner loads before the screen renders.
  const preloaded = scannerPreloads.map((file) => readFileSync(join(DIST_DIR, file), 'utf8'));
  expect(schemaIds.filter((id) => preloaded.some((code) => builtBy(code, id)))).toEqual([]);
});

test("/scanner's preloaded code holds none of Radix's tooltip, which loads when a mouse or a keyboard first comes to the control (docs/decisions/128)", () => {
  const html = readFileSync(join(DIST_DIR, 'index.html'), 'utf8');
  const scannerPreloads = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+)" data-path="\/scanner">/g)].map((match) => match[1] ?? '');
  expect(scannerPreloads.length).toBeGreaterThan(0);
  const manifest = JSON.parse(readFileSync(join(DIST_DIR, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
  const radixTooltip = manifest['src/components/ui/radix-tooltip.tsx'];
  expect(radixTooltip, 'radix-tooltip.tsx is a chunk of its own').toBeDefined();
  expect(readFileSync(join(DIST_DIR, radixTooltip?.file ?? ''), 'utf8')).toMatch(/TooltipProvider/);
  // Radix's tooltip and its positioning layer (the popper's wrapper) are nowhere in the preloads.
  const code = scannerPreloads.map((file) => readFileSync(join(DIST_DIR, file), 'utf8'));
  expect(code.filter((chunk) => /TooltipProvider|data-radix-popper-content-wrapper/.test(chunk))).toEqual([]);
});

test('the first load carries no TanStack Query: the sign-in screen works without the query cache (docs/decisions/098)', () => {
  const { scripts } = readFirstLoad();
  // Messages only TanStack Query's code holds: query-core's (any query) and react-query's provider.
  const tanStackChunks = readdirSync(join(DIST_DIR, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => `assets/${file}`)
    .filter((file) => /Missing queryFn|No QueryClient set/.test(readFileSync(join(DIST_DIR, file), 'utf8')));
  // In the build, loaded with the screens after sign-in; none of it before the form is usable.
  expect(tanStackChunks.length).toBeGreaterThan(0);
  expect(tanStackChunks.filter((file) => scripts.has(file))).toEqual([]);
});

test("the first load asks for no text of the other screens' English file, which loads with those screens (docs/decisions/098)", () => {
  const { scripts } = readFirstLoad();
  const otherScreens = Object.keys(JSON.parse(readFileSync(new URL('../src/lib/i18n/locales/en-screens.json', import.meta.url), 'utf8')) as object);
  // A key is a string literal of the minified code: 'scanner.verify', `offline.${x}`.
  const keyOfOtherScreens = new RegExp(`["'\`](?:${otherScreens.join('|')})\\.[a-zA-Z]`);
  expect(otherScreens.length).toBeGreaterThan(0);
  expect([...scripts].filter((file) => keyOfOtherScreens.test(readFileSync(join(DIST_DIR, file), 'utf8')))).toEqual([]);
});

test('the first paint waits for the HTML alone: no script or stylesheet blocks it, the whole prerendered body is parsed first, and the app starts under the CSP', async ({ page }) => {
  const errors = collectErrors(page);
  const response = await page.goto('/login');
  await waitForApp(page);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  // The boot script is inline, allowed by its hash and nothing broader (docs/decisions/099).
  const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec((await response?.allHeaders())?.['content-security-policy'] ?? '')?.[1] ?? '';
  expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
  expect(scriptSrc).not.toContain('unsafe-inline');
  // Chromium's own account of the load: every script and stylesheet fetched was non-blocking.
  const fetched = await page.evaluate(() =>
    // renderBlockingStatus: Chromium 107+, not yet in TypeScript's DOM types.
    (performance.getEntriesByType('resource') as (PerformanceResourceTiming & { renderBlockingStatus?: string })[])
      .filter((entry) => ['script', 'link', 'css'].includes(entry.initiatorType))
      .map((entry) => ({ url: new URL(entry.name).pathname, renderBlockingStatus: entry.renderBlockingStatus })),
  );
  expect(fetched.map((entry) => entry.url)).toContainEqual(expect.stringMatching(/^\/assets\/index-.+\.js$/));
  expect(fetched.filter((entry) => entry.renderBlockingStatus !== 'non-blocking')).toEqual([]);
  // The entry's stylesheet is in the page, not fetched again by a lazy chunk.
  expect(fetched.filter((entry) => entry.url.endsWith('.css'))).toEqual([]);
  // Nothing in <head> blocks rendering any more, so the paint waits for the whole prerendered body
  // (never a half-parsed, centred card that then moves): the render-blocking expect link names the
  // body's last element, after every prerendered copy.
  const expected = await page.evaluate(() => {
    const link = document.querySelector<HTMLLinkElement>('head link[rel="expect"][blocking="render"]');
    const target = link ? document.getElementById(link.getAttribute('href')?.slice(1) ?? '') : null;
    return { isLastOfBody: target !== null && target === document.body.lastElementChild, isHidden: target?.hidden };
  });
  expect(expected).toEqual({ isLastOfBody: true, isHidden: true });
  expect(errors).toEqual([]);
});

test.describe('JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('/login shows SPEC §2\'s sign-in texts from the HTML alone', async ({ page, saveScreen }) => {
    await page.goto('/login');
    // Only the English sign-in: neither the German page nor 'Loading...'.
    await expect(page.getByText(GERMAN_SUBTITLE)).toBeHidden();
    await expect(page.getByText('Loading...')).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Gatecheck Scanner' })).toBeVisible();
    await expect(page.getByText(ENGLISH_SUBTITLE)).toBeVisible();
    await expect(page.getByLabel('Email or Username')).toBeVisible();
    await expect(page.getByLabel('Password')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeVisible();
    await saveScreen(page, 'first-paint-no-javascript', { fullPage: false });
  });
});

test.describe('a German device', () => {
  test.use({ locale: 'de-DE', viewport: { width: 360, height: 740 } });

  test('never paints the English subtitle: German from the HTML, then hydrated in place with no layout shift', async ({ page, saveScreen }) => {
    const errors = collectErrors(page);
    await watchFrames(page, ENGLISH_SUBTITLE);
    const script = await holdAppScript(page);
    await page.goto('/login', { waitUntil: 'commit' });
    // First the English copy hidden: until the stylesheet has arrived (nothing is painted before it,
    // a render-blocking stylesheet) every prerendered copy counts as visible to Playwright.
    await expect(page.getByText(ENGLISH_SUBTITLE)).toBeHidden();
    await expect(page.getByText(GERMAN_SUBTITLE)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Gatecheck Scanner' })).toBeVisible();
    await expect(page.getByLabel('E-Mail oder Benutzername')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await saveScreen(page, 'first-paint-de-before-javascript', { fullPage: false });
    const heading = await page.getByRole('heading', { level: 1 }).elementHandle();

    script.release();
    await waitForApp(page);
    await expect(page.getByRole('button', { name: 'Anmelden' })).toBeEnabled();
    await expect(page.getByText(GERMAN_SUBTITLE)).toBeVisible();
    await saveScreen(page, 'first-paint-de-hydrated', { fullPage: false });
    // Hydrated, not rendered again: the painted heading is the one React now owns.
    expect(await heading?.evaluate((element) => element.isConnected)).toBe(true);
    const record = await frameRecord(page);
    expect(record.frames).toBeGreaterThan(0);
    expect(record.framesWithText).toBe(0);
    expect(record.layoutShift).toBe(0);
    expect(errors).toEqual([]);
  });
});

test('what is typed before hydration is kept, Sign In waits for React, and signing in works; a stored session paints Loading...', async ({ page, saveScreen }) => {
  const errors = collectErrors(page);
  await watchFrames(page, ENGLISH_SUBTITLE);
  let script = await holdAppScript(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByText(GERMAN_SUBTITLE)).toBeHidden();
  await expect(page.getByText(ENGLISH_SUBTITLE)).toBeVisible();
  // The prerendered fields take typing; the form cannot be sent by the browser itself before React runs.
  await page.getByLabel('Email or Username').fill(DEMO_USER.email);
  await page.getByLabel('Password').fill(DEMO_USER.password);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeDisabled();
  // A form the browser sent itself would be a GET with the password in the address: watch every
  // request and navigation while Enter is pressed before hydration.
  const sentByBrowser: string[] = [];
  const recordRequest = (request: { url(): string }) => {
    if (/[?&]password=/.test(request.url())) sentByBrowser.push(request.url());
  };
  const recordNavigation = (frame: { url(): string }) => {
    if (new URL(frame.url()).search !== '') sentByBrowser.push(frame.url());
  };
  page.on('request', recordRequest);
  page.on('framenavigated', recordNavigation);
  await page.getByLabel('Password').press('Enter');
  // A submit would navigate at once; give it the time to start before looking.
  await page.waitForTimeout(500);
  page.off('request', recordRequest);
  page.off('framenavigated', recordNavigation);
  expect(sentByBrowser).toEqual([]);
  await expect(page).toHaveURL(/\/login$/);
  await saveScreen(page, 'first-paint-en-typed-before-javascript', { fullPage: false });

  script.release();
  await waitForApp(page);
  await expect(page.getByLabel('Email or Username')).toHaveValue(DEMO_USER.email);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/organization-select$/);
  await expect(page.getByRole('heading', { name: 'Choose Your Organization' })).toBeVisible();
  expect((await frameRecord(page)).layoutShift).toBe(0);

  // Signed in (a stored user): the next load paints the guard's 'Loading...' from the HTML, not the form.
  await page.unrouteAll();
  script = await holdAppScript(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByText(ENGLISH_SUBTITLE)).toBeHidden();
  await expect(page.getByText('Loading...')).toBeVisible();
  await saveScreen(page, 'first-paint-stored-session-before-javascript', { fullPage: false });
  script.release();
  await expect(page).toHaveURL(/\/organization-select$/);
  await expect(page.getByRole('heading', { name: 'Choose Your Organization' })).toBeVisible();
  await expect(page.getByText('Loading...')).toBeHidden();
  expect(errors).toEqual([]);
});
