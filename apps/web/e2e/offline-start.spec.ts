/**
 * Issue 12 item 1, end to end: after one online visit, the app starts with the server process
 * stopped for real (its process group killed, not network emulation) — signed in, at the scanner of
 * the chosen day, marked 'Offline' — decodes a QR code with the precached decoder, and lists the
 * organizations and events it saw online. No request of the whole run leaves our origin (no CDN for
 * the zxing .wasm or anything else). When the server is back, the indicator goes.
 * Decisions 055 (service worker) and 056 (offline start).
 */
import { API_PREFIX, apiPaths } from '@gatecheck/contract';
import { todaysDayNumber } from './support/demo-scope.ts';
import { TicketPool, readDemoTickets } from './support/demo-tickets.ts';
import { expect } from './support/fixtures.ts';
import { openScannerForDay, screen, startScanning } from './support/main-job.ts';
import { testWithOwnServer } from './support/own-server.ts';
import { startGatecheckServer } from './support/server.ts';

/** A server of this test's own, which the test stops and starts again on the same port and data. */
const withOwnServer = testWithOwnServer('offline-start');

withOwnServer(
  'with the server stopped, a reload brings the app back signed in at the scanner of the day, marked Offline, and it still decodes and lists what it saw',
  async ({ page, context, ownServer, fakeCamera, saveScreen }) => {
    const origin = new URL(ownServer.current.url).origin;
    // Every request of the page and of its service worker, to prove that none leaves our origin.
    const requested: string[] = [];
    context.on('request', (request) => requested.push(request.url()));

    // Online: sign in and walk to the scanner of today.
    const { organization, event } = await openScannerForDay(page, 'today');
    const day = event.eventDays.find((candidate) => candidate.day === todaysDayNumber(event));
    if (!day) throw new Error(`no day of "${event.title}" is today`);
    await expect(page.getByTestId('offline-indicator')).toHaveCount(0);

    // The service worker has installed (its whole precache fetched) and is active.
    await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state)).toBe('activated');
    await saveScreen(page, 'offline-start-1-online-scanner', { fullPage: false });

    // The server goes away for real.
    const { dataDir, url } = ownServer.current;
    await ownServer.current.stop({ keepData: true });
    const probe = await page.request.get(`${url}${API_PREFIX}${apiPaths.health}`).catch((error: unknown) => error);
    expect(probe, 'the server no longer answers').toBeInstanceOf(Error);

    // Reload: the app comes back, signed in, at the scanner of that day, marked Offline.
    await page.reload();
    await expect(page).toHaveURL(/\/scanner$/);
    await expect(page.getByText('Scanning For')).toBeVisible();
    await expect(screen(page).getByText(event.title)).toBeVisible();
    await expect(screen(page).getByText(day.name ?? `Day ${day.day}`).first()).toBeVisible();
    await expect(page.getByTestId('offline-indicator')).toBeVisible();
    await expect(page.getByText('Session expired')).toHaveCount(0);
    await saveScreen(page, 'offline-start-2-reloaded-offline', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreen(page, 'offline-start-2-reloaded-offline-dark', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'light' });

    // The precached QR decoder (script and .wasm) reads a code with no server.
    const tickets = new TicketPool(readDemoTickets(dataDir));
    const ticket = tickets.take(`for "${event.title}"`, (candidate) => candidate.eventTitle === event.title);
    await startScanning(page);
    fakeCamera.showCode(ticket.code);
    await page.getByRole('button', { name: 'Start Camera' }).click();
    await expect(page.getByText('QR Code Detected!').first()).toBeVisible();
    await saveScreen(page, 'offline-start-3-decoded-offline', { fullPage: false });

    // The choice screens have their lists from the device (decision 056), one step back at a time.
    await page.goto('/day-select');
    await expect(page.getByRole('heading', { name: 'Select Event Day' })).toBeVisible();
    await expect(screen(page).getByText(`Day ${day.day}`, { exact: true })).toBeVisible();
    await page.goto('/event-select');
    await expect(screen(page).getByRole('button', { name: new RegExp(event.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })).toBeVisible();
    await saveScreen(page, 'offline-start-4-events-offline', { fullPage: false });
    await page.goto('/organization-select');
    await expect(screen(page).getByText(organization.name)).toBeVisible();
    await expect(page.getByTestId('offline-indicator')).toBeVisible();

    // The server's own routes are never answered with the app: offline, a page load of one fails.
    await expect(page.goto('/api/health')).rejects.toThrow();

    // The server comes back on the same address: the indicator goes (probed every 5 s), still signed in.
    ownServer.current = await startGatecheckServer('offline-start', { dataDir, port: Number(new URL(url).port) });
    await page.goto('/organization-select');
    await expect(page.getByTestId('offline-indicator')).toHaveCount(0, { timeout: 20_000 });
    await expect(page).toHaveURL(/\/organization-select$/);
    await expect(screen(page).getByText(organization.name)).toBeVisible();

    // Nothing came from anywhere but our origin: the zxing .wasm included.
    const foreign = requested.filter((address) => /^https?:/.test(address) && new URL(address).origin !== origin);
    expect(foreign).toEqual([]);
    expect(requested.filter((address) => address.endsWith('.wasm')).length).toBeGreaterThan(0);
  },
);
