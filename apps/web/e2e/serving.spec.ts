/**
 * How the server delivers the app to a phone at the door (issue 15 items 5, 6 and 17), seen from
 * the browser: what crosses the wire (compressed, cached), what a missing file answers, and that no
 * page of the main job reports a Content-Security-Policy violation.
 */
import type { Page, Response } from '@playwright/test';
import { PNG } from 'pngjs';
import { findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, openApp, scanWithCamera, signIn, startScanning } from './support/main-job.ts';

/** Bytes of one response: over the wire (as encoded) and as the page sees it (decoded). */
interface Transfer {
  url: string;
  encoding: string | undefined;
  cacheControl: string | undefined;
  wireBytes: number;
  decodedBytes: number;
}

async function transferOf(response: Response): Promise<Transfer> {
  const headers = await response.allHeaders();
  const sizes = await response.request().sizes();
  return {
    url: new URL(response.url()).pathname,
    encoding: headers['content-encoding'],
    cacheControl: headers['cache-control'],
    wireBytes: sizes.responseBodySize,
    decodedBytes: (await response.body()).length,
  };
}

/** Collects every response of the page's own origin while `action` runs, by path. */
async function recordResponses(page: Page, action: () => Promise<void>): Promise<Response[]> {
  const responses: Response[] = [];
  const listener = (response: Response) => responses.push(response);
  page.on('response', listener);
  try {
    await action();
  } finally {
    page.off('response', listener);
  }
  return responses;
}

function kilobytes(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

/** vite.config.ts's compression threshold: smaller files get no .br / .gz next to them. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

test.describe('what crosses the wire on a first visit', () => {
  // Without the service worker (decision 055): its precache would fetch the .wasm first, and the page's
  // own load would then come from the browser's cache, with no bytes on the wire to measure.
  test.use({ serviceWorkers: 'block' });

  test('the sign-in page and the QR decoder arrive brotli-compressed and cached for good, and the decoder is fetched once, ahead of the scanner', async ({
    page,
    fakeCamera,
    ticketPool,
  }, testInfo) => {
    // Until the app has started: the prerendered form shows before the entry script is even asked for
    // (the boot script starts it at the first paint, docs/decisions/099).
    const signInLoad = await recordResponses(page, async () => {
      await openApp(page);
      await expect(page.locator('html')).not.toHaveAttribute('data-boot', /.*/);
    });
    const document = signInLoad.find((response) => response.request().resourceType() === 'document');
    expect(document, 'the sign-in page itself').toBeDefined();
    expect((await document?.allHeaders())?.['cache-control'], 'index.html is revalidated on every load').toBe('no-cache');

    const bundles = await Promise.all(
      signInLoad.filter((response) => ['script', 'stylesheet'].includes(response.request().resourceType())).map(transferOf),
    );
    expect(bundles.map((bundle) => bundle.url)).toContainEqual(expect.stringMatching(/^\/assets\/.+\.js$/));
    // The hashed bundles (the boot script and the entry's stylesheet are inside index.html, docs/decisions/099).
    // A hashed chunk below that threshold (Rollup may split off a few bytes shared by two screens) is
    // sent as it is: brotli would not make it smaller. It is still cached for good.
    for (const bundle of bundles.filter((candidate) => candidate.url.startsWith('/assets/'))) {
      expect(bundle, `${bundle.url} is cached for good`).toMatchObject({ cacheControl: 'public, max-age=31536000, immutable' });
      if (bundle.decodedBytes < COMPRESSION_THRESHOLD_BYTES) continue;
      expect(bundle, `${bundle.url} is sent in brotli`).toMatchObject({ encoding: 'br' });
      expect(bundle.wireBytes, `${bundle.url} over the wire`).toBeLessThan(bundle.decodedBytes);
    }
    const signInWire = bundles.reduce((sum, bundle) => sum + bundle.wireBytes, 0);
    const signInDecoded = bundles.reduce((sum, bundle) => sum + bundle.decodedBytes, 0);
    // Brotli shrinks the first load to about a quarter: a third is a generous bound. (Over the whole
    // load: since the screens are split into chunks (issue 13), a 1.6 kB chunk of it shrinks less.)
    expect(signInWire, 'the sign-in page over the wire').toBeLessThan(signInDecoded / 3);

    // The decoder is prefetched once signed in (issue 13 item 2), before anyone presses 'Start Camera'.
    const decoderLoad = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('.wasm'));
    const wasmRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.wasm')) wasmRequests.push(request.url());
    });
    await signIn(page);
    const { organization, event } = await findLiveThreeDayEvent(page.request);
    await chooseOrganization(page, organization.name);
    await chooseEvent(page, event.title);
    await chooseDay(page, todaysDayNumber(event));
    const wasmResponse = await decoderLoad;
    const wasm = await transferOf(wasmResponse);
    expect((await wasmResponse.allHeaders())['content-type']).toBe('application/wasm');
    expect(wasm, 'the decoder .wasm is sent in brotli').toMatchObject({ encoding: 'br', cacheControl: 'public, max-age=31536000, immutable' });
    expect(wasm.wireBytes, 'the decoder .wasm over the wire').toBeLessThan(wasm.decodedBytes / 2);

    const ticket = ticketPool.take(`for "${event.title}" on all days`, (candidate) => candidate.eventTitle === event.title && candidate.days === 'all');
    await startScanning(page);
    await scanWithCamera(page, fakeCamera, ticket.code);
    await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
    expect(wasmRequests, 'the prefetched decoder serves the first Start Camera').toHaveLength(1);

    const measured = `sign-in page scripts and styles: ${kilobytes(signInWire)} over the wire (${kilobytes(signInDecoded)} decoded); decoder .wasm: ${kilobytes(wasm.wireBytes)} (${kilobytes(wasm.decodedBytes)} decoded)`;
    testInfo.annotations.push({ type: 'transfer', description: measured });
    process.stdout.write(`[serving] ${measured}\n`);
  });
});

test.describe('what the server answers, with no service worker in between', () => {
  // Once the app's service worker controls the page (decision 055), a file it precached, such as
  // robots.txt, comes from its cache, not from the server this test is about.
  test.use({ serviceWorkers: 'block' });

  test('a missing file answers 404, not the app; the favicon, the app icons and robots.txt are real files', async ({ page }) => {
    // A file name typed into the address bar is a page load, yet still a 404: only pages fall back.
    for (const path of ['/manifest.json', '/assets/gone-1234.js', '/some-script.js']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      expect((await response?.allHeaders())?.['content-type'], path).toMatch(/application\/json/);
    }
    // A path without an extension is a page of the app: the app shows its own 404 (SPEC §2).
    const unknownPage = await page.goto('/no-such-screen');
    expect(unknownPage?.status()).toBe(200);
    await expect(page.getByText('Oops! Page not found')).toBeVisible();

    const robots = await page.goto('/robots.txt');
    expect(robots?.status()).toBe(200);
    expect((await robots?.allHeaders())?.['content-type']).toMatch(/^text\/plain/);
    expect(await robots?.text()).toMatch(/^User-agent: \*\nDisallow: \/$/m);

    await openApp(page);
    const linkedIcons = await page.locator('link[rel~="icon"], link[rel="apple-touch-icon"]').evaluateAll((links) =>
      links.map((link) => ({ rel: link.getAttribute('rel') ?? '', href: link.getAttribute('href') ?? '' })),
    );
    expect(linkedIcons.map((icon) => icon.href).sort()).toEqual(['/apple-touch-icon-180x180.png', '/favicon.ico', '/favicon.svg']);
    const expectedTypes: Record<string, RegExp> = { ico: /^image\/(?:x-icon|vnd\.microsoft\.icon)/, svg: /^image\/svg\+xml/, png: /^image\/png/ };
    for (const { href } of linkedIcons) {
      const response = await page.request.get(href);
      expect(response.status(), href).toBe(200);
      expect(response.headers()['content-type'], href).toMatch(expectedTypes[href.split('.').pop() ?? ''] ?? /^image\//);
    }
    // The home-screen icons (the web manifest of the offline work will list the 192, 512 and maskable ones).
    for (const [href, side] of [
      ['/apple-touch-icon-180x180.png', 180],
      ['/pwa-192x192.png', 192],
      ['/pwa-512x512.png', 512],
      ['/maskable-icon-512x512.png', 512],
    ] as const) {
      const response = await page.request.get(href);
      expect(response.status(), href).toBe(200);
      const png = PNG.sync.read(await response.body());
      expect([png.width, png.height], href).toEqual([side, side]);
    }
  });
});

test('no page of the main job reports a Content-Security-Policy violation', async ({ page, fakeCamera, ticketPool }) => {
  const violations: string[] = [];
  await page.exposeBinding('reportCspViolation', (_source, description: string) => {
    violations.push(description);
  });
  // Registered before any script of the page runs, so a violation at load time is caught too.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (description: string) => void }).reportCspViolation;
      report(`${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber} on ${location.pathname}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });

  await openApp(page);
  await signIn(page);
  const { organization, event } = await findLiveThreeDayEvent(page.request);
  await chooseOrganization(page, organization.name);
  await chooseEvent(page, event.title);
  await chooseDay(page, todaysDayNumber(event));
  const ticket = ticketPool.take(`for "${event.title}" on all days`, (candidate) => candidate.eventTitle === event.title && candidate.days === 'all');
  await startScanning(page);
  await scanWithCamera(page, fakeCamera, ticket.code);
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });

  // Each screen loaded afresh, as after a reload or a deep link.
  for (const path of ['/organization-select', '/event-select', '/day-select', '/scanner', '/no-such-screen', '/login']) {
    await page.goto(path);
    await page.waitForLoadState('load');
    await expect(page.getByRole('main').or(page.getByText('Oops! Page not found')).first()).toBeVisible();
  }
  expect(violations).toEqual([]);
});
