/**
 * Decisions 076 and 077 end to end, at a 360x740 phone, with the REAL server process stopped and
 * started again on the same port and data:
 * - a ticket approved offline waits in the outbox; 'Logout' on the event list cannot send it, so a
 *   dialog says so and 'Stay signed in' keeps the session; once the server is back, 'Logout' goes
 *   straight to /login and the check-in is on the server — read through the API under a fresh
 *   sign-in of its own, before this device signs in again (which would send it).
 * - the shift change: 'Log out anyway', and a colleague signs in on the same phone once the server
 *   is back: the scan is sent under the colleague's session as the first staff member's check-in,
 *   so the same ticket at the colleague's scanner is DENIED, not admitted twice.
 * Screenshot: e2e/artifacts/logout-unsent.png.
 */
import { API_PREFIX, AttendeeSearchResponse, LoginResponse, apiPaths, offlinePaths, supervisorPaths } from '@gatecheck/contract';
import { axeViolations } from './support/axe.ts';
import { DEMO_COLLEAGUE, DEMO_USER } from './support/demo-scope.ts';
import { expect } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, openScannerReadyForOffline, signIn, startScanning, verdictCard, verifyByHand } from './support/main-job.ts';
import { testWithOwnServer } from './support/own-server.ts';
import { startGatecheckServer } from './support/server.ts';

const withOwnServer = testWithOwnServer('logout-unsent');

withOwnServer.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

withOwnServer(
  'a logout with a check-in not yet sent asks first, and once the server is back the logout sends it',
  async ({ page, request, ownServer, saveScreen }) => {
    withOwnServer.setTimeout(240_000);
    const { event, day, tickets } = await openScannerReadyForOffline(page, ownServer.current.dataDir);
    const valid = tickets.takeForDay(event.title, day);

    // The outage: the server's process group is stopped for real; a ticket is approved offline.
    const { dataDir, url } = ownServer.current;
    await ownServer.current.stop({ keepData: true });
    await verifyByHand(page, valid.code);
    await expectVerdict(page, { isValid: true, holderName: valid.holderName });
    await expect(verdictCard(page).getByText('Offline', { exact: true })).toBeVisible();
    await expect(page.getByTestId('waiting-count')).toHaveText('1 scan waiting to be sent');

    // Back to the event list (SPEC §2: scanner → days → events), where 'Logout' is.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('heading', { name: 'Select Event Day' })).toBeVisible();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('heading', { name: /Choose Your Event/ })).toBeVisible();

    await page.getByRole('button', { name: 'Logout' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Scans not sent yet' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      '1 scan made offline on this device has not reached the server. Stay signed in until it is sent: after a logout it waits on this device until someone from your team signs in here.',
    );
    await expect(dialog.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
    expect(await axeViolations(page, 'logout-unsent')).toEqual([]);
    await saveScreen(page, 'logout-unsent', { fullPage: false });

    await dialog.getByRole('button', { name: 'Stay signed in' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/event-select$/);

    // The server is back on the same address. The screen's own sender is held off (its uploads
    // fail), so the scan is still waiting when 'Logout' is tapped, and the logout sends it.
    const uploads = `**${API_PREFIX}${offlinePaths.offlineScans(event._id, day)}`;
    await page.route(uploads, (route) => route.abort());
    ownServer.current = await startGatecheckServer('logout-unsent', { dataDir, port: Number(new URL(url).port) });
    await page.unroute(uploads);
    const sentByLogout = page.waitForResponse((response) => response.url().includes(offlinePaths.offlineScans(event._id, day)) && response.ok());
    await page.getByRole('button', { name: 'Logout' }).click();
    await sentByLogout;
    await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    // On the server, through a session of its own: the ticket is checked in for the day.
    const login = await request.post(`${API_PREFIX}${apiPaths.login}`, { data: { email: DEMO_USER.email, password: DEMO_USER.password } });
    expect(login.ok(), await login.text()).toBe(true);
    const { token } = LoginResponse.parse(await login.json());
    const search = await request.get(`${API_PREFIX}${supervisorPaths.attendeeSearch(event._id)}?q=${encodeURIComponent(valid.code)}&day=${day}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(search.ok(), await search.text()).toBe(true);
    const attendee = AttendeeSearchResponse.parse(await search.json()).attendees.find((candidate) => candidate.code === valid.code);
    expect(attendee?.checkIn?.checkedInAt).toEqual(expect.any(String));
  },
);

withOwnServer(
  "at a shift change a scan left by 'Log out anyway' is sent when a colleague signs in on the phone, as the first staff member's check-in",
  async ({ page, ownServer }) => {
    withOwnServer.setTimeout(240_000);
    const { organization, event, day, tickets } = await openScannerReadyForOffline(page, ownServer.current.dataDir);
    const valid = tickets.takeForDay(event.title, day);
    const { dataDir, url } = ownServer.current;
    await ownServer.current.stop({ keepData: true });
    await verifyByHand(page, valid.code);
    await expectVerdict(page, { isValid: true, holderName: valid.holderName });
    await expect(page.getByTestId('waiting-count')).toHaveText('1 scan waiting to be sent');

    // The first staff member leaves anyway, with the server still down.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('alertdialog', { name: 'Scans not sent yet' }).getByRole('button', { name: 'Log out anyway' }).click();
    await expect(page).toHaveURL(/\/login$/);

    // The server is back; a colleague signs in on the same phone and goes to the same day's scanner.
    ownServer.current = await startGatecheckServer('logout-unsent', { dataDir, port: Number(new URL(url).port) });
    await signIn(page, DEMO_COLLEAGUE);
    await chooseOrganization(page, organization.name);
    await chooseEvent(page, event.title);
    await chooseDay(page, day);
    await startScanning(page);
    await expect(page.getByTestId('others-waiting-count')).toHaveCount(0, { timeout: 30_000 });

    // The ticket let in by the first staff member is not let in again.
    await verifyByHand(page, valid.code);
    await expectVerdict(page, { isValid: false, because: /^Already checked in at .+ by Demo Staff$/ });
    await expect(verdictCard(page).getByText('Offline', { exact: true })).toHaveCount(0);
  },
);

