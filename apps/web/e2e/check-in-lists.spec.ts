/**
 * Check-in lists end to end (docs/decisions/100, 109) at a 360x740 phone, with the real admin CLI and
 * real QR codes on the fake camera: the organizer makes 'Main entrance' (every ticket type, first)
 * and 'VIP Gate' (VIP only) with `list create` and removes the default list; the gate chooses the
 * day, then 'VIP Gate' (the list step), sees it in the header; a general ticket is DENIED naming the
 * main entrance, a VIP ticket is APPROVED; with the server stopped for real, another general ticket
 * is DENIED with the same words, decided on the device from the VIP Gate's door list.
 * The CLI needs the server stopped (the embedded database admits one process).
 * Screenshots: e2e/artifacts/lists-*.png.
 */
import { API_PREFIX, apiPaths } from '@gatecheck/contract';
import { runAdmin } from './support/admin-cli.ts';
import { findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { admitsDay, readDemoTickets, TicketPool } from './support/demo-tickets.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseEvent, chooseOrganization, dayCard, expectVerdict, openApp, scanWithCamera, screen, signIn, startScanning, verdictCard } from './support/main-job.ts';
import { testWithOwnServer } from './support/own-server.ts';
import { startGatecheckServer } from './support/server.ts';

const withOwnServer = testWithOwnServer('check-in-lists');

withOwnServer.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

const NOT_HERE = 'Not valid at this entrance — valid at Main entrance';

withOwnServer(
  'at the VIP Gate a general ticket is denied naming the main entrance and a VIP ticket is approved, online and with the server stopped',
  async ({ page, ownServer, fakeCamera, saveScreen }) => {
    test.setTimeout(300_000);
    await openApp(page);
    await signIn(page);
    const { organization, event } = await findLiveThreeDayEvent(page.request);
    const day = todaysDayNumber(event);
    const { dataDir, url } = ownServer.current;
    const tickets = new TicketPool(readDemoTickets(dataDir));
    const forToday = (type: string) => tickets.take(`${type} for today`, (ticket) => ticket.eventTitle === event.title && ticket.ticketType === type && admitsDay(ticket, day));

    // The organizer sets up the doors.
    await ownServer.current.stop({ keepData: true });
    await runAdmin(dataDir, ['list', 'create', '--event', event._id, '--name', 'Main entrance', '--position', '1']);
    await runAdmin(dataDir, ['list', 'create', '--event', event._id, '--name', 'VIP Gate', '--types', 'VIP']);
    await runAdmin(dataDir, ['list', 'delete', '--event', event._id, '--list', 'All tickets']);
    ownServer.current = await startGatecheckServer('check-in-lists', { dataDir, port: Number(new URL(url).port) });
    // A first check through the API, so the gate's scans below do not meet a server still warming up.
    const warmUp = await page.request.post(`${API_PREFIX}${apiPaths.verifyTicket}`, { data: { eventId: event._id, qrCode: 'WARM-UP-NO-SUCH-TICKET', day } });
    expect(warmUp.ok(), await warmUp.text()).toBe(true);

    // The gate: day, then the list.
    await chooseOrganization(page, organization.name);
    await chooseEvent(page, event.title);
    await dayCard(page, day).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeVisible();
    await expect(screen(page).getByRole('button', { name: 'Main entrance' })).toBeVisible();
    await saveScreen(page, 'lists-choose', { fullPage: false });
    await screen(page).getByRole('button', { name: 'VIP Gate' }).click();
    await expect(page).toHaveURL(/\/scanner$/);
    await expect(page.locator('header').getByText('Check-in list: VIP Gate')).toBeVisible();
    await startScanning(page);
    await expect(page.getByTestId('last-synced')).toHaveText(/^Last synced \d{1,2}:\d{2}/);
    await saveScreen(page, 'lists-scanner-vip-gate', { fullPage: false });
    const startCamera = page.getByRole('button', { name: 'Start Camera' });

    const general = forToday('General Admission');
    await scanWithCamera(page, fakeCamera, general.code);
    await expectVerdict(page, { isValid: false, because: NOT_HERE });
    await expect(verdictCard(page).getByText('Offline', { exact: true })).toHaveCount(0);
    await saveScreen(page, 'lists-denied-online', { fullPage: false });
    await expect(startCamera).toBeEnabled();

    const vip = forToday('VIP');
    await scanWithCamera(page, fakeCamera, vip.code);
    await expectVerdict(page, { isValid: true, holderName: vip.holderName });
    await expect(startCamera).toBeEnabled();

    // The outage: the server is stopped for real; the VIP Gate's door list decides.
    await ownServer.current.stop({ keepData: true });
    const another = forToday('Weekend Pass');
    await scanWithCamera(page, fakeCamera, another.code);
    await expectVerdict(page, { isValid: false, because: NOT_HERE });
    await expect(verdictCard(page).getByText('Offline', { exact: true })).toBeVisible();
    await saveScreen(page, 'lists-denied-offline', { fullPage: false });
    // The narrowest phone: the words still fit the card.
    await page.setViewportSize({ width: 320, height: 640 });
    await expect(verdictCard(page).getByText(NOT_HERE)).toBeVisible();
    await saveScreen(page, 'lists-flash-denied-offline-320', { fullPage: false });
    // Once the flash is gone, the card under it says the same.
    await expect(page.locator('[data-verdict]')).toHaveCount(0, { timeout: 15_000 });
    await verdictCard(page).scrollIntoViewIfNeeded();
    await saveScreen(page, 'lists-card-denied-offline-320', { fullPage: false });
  },
);
