/**
 * The organizer's management area on the real server and database (docs/decisions/105, 106), as a
 * new organizer tries it on a phone: the demo admin signs in, opens Manage events, is shown each
 * problem of an empty form next to its field, creates an event with two days, and invites a new
 * staff member by e-mail (the real mailer, its outbox folder); the tickets come in as a CSV upload
 * whose bad row the preview names and the import skips; the invited person opens the mailed link, makes an
 * account, signs in, finds the event in the scanning flow, has no way into /manage, and scans a
 * ticket of it — the signed QR code the admin downloaded with 'Signed QR codes' on (decision 135),
 * held to the camera: APPROVED. The admin adds a 'VIP Gate' check-in list for the second day, and after
 * the scan makes the new member a supervisor. The Activity page shows the creation and the list, in
 * English and in German. Screens are saved at 320 and 360 px, light and dark, and checked with axe.
 */
import { readFile } from 'node:fs/promises';
import { parseSignedTicket } from '@gatecheck/contract';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { waitForInvitationPath } from './support/outbox.ts';
import { axeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, openApp, scanImageWithCamera, signIn, startScanning } from './support/main-job.ts';
import { testWithOwnServer } from './support/own-server.ts';

const withOwnServer = testWithOwnServer('manage');
withOwnServer.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

/** The demo organization's admin (seed, README), and the person they invite to the door team. */
const DEMO_ADMIN = { email: 'demo@example.com', password: 'demo-scanner' } as const;
const NEW_STAFF = { email: 'nadia@example.org', username: 'nadia', name: 'Nadia Door', password: 'nadia-at-the-door' } as const;
const TITLE = 'Pier Nights';
const TICKET = { code: 'PIER-NIGHTS-0001', holderName: 'Noor Pier', ticketType: 'General Admission' };

withOwnServer('an admin creates an event with two days at a phone viewport and invites a staff member, who joins from the mailed link, sees the event and scans its ticket', async ({ page, browser, ownServer, fakeCamera, saveScreen }) => {
  test.setTimeout(240_000);
  await openApp(page);
  await signIn(page, DEMO_ADMIN);
  await chooseOrganization(page, 'Northwind Live');
  await page.getByRole('link', { name: 'Manage events' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage events' })).toBeVisible();
  await saveScreen(page, 'manage-list', { fullPage: false });
  expect(await axeViolations(page, 'manage list')).toEqual([]);

  await page.getByRole('link', { name: 'New event' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New event' })).toBeVisible();
  // An empty title: said next to the field, nothing sent.
  await page.getByRole('button', { name: 'Create event' }).click();
  await expect(page.getByLabel('Title')).toHaveAccessibleDescription('Give the event a title.');
  await expect(page).toHaveURL(/\/manage\/events\/new$/);

  await page.getByLabel('Title').fill(TITLE);
  await page.getByLabel('Location').fill('Harbour Pier 2');
  await page.getByLabel('Status').selectOption('live');
  await page.getByRole('button', { name: 'Add day' }).click();
  await page.getByRole('button', { name: 'Add day' }).click();
  await page.getByRole('group', { name: 'Day 1' }).getByLabel('Name').fill('Opening');
  await page.getByRole('group', { name: 'Day 2' }).getByLabel('Name').fill('Closing');
  await saveScreen(page, 'manage-new-event-360-light', { fullPage: true });
  expect(await axeViolations(page, 'new event form')).toEqual([]);
  await page.setViewportSize({ width: 320, height: 640 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await saveScreen(page, 'manage-new-event-320-dark', { fullPage: true });
  expect(await axeViolations(page, 'new event form, dark, 320 px')).toEqual([]);
  await page.getByRole('button', { name: 'Create event' }).click();
  await expect(page).toHaveURL(/\/manage\/events\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  const eventId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
  await saveScreen(page, 'manage-event-320-dark', { fullPage: true });
  expect(await axeViolations(page, 'event, dark, 320 px')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await axeViolations(page, 'event, 320 px')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });

  // A second door for the second day: the 'VIP Gate' list.
  await page.getByRole('link', { name: 'Check-in lists' }).click();
  await page.getByRole('button', { name: 'New check-in list' }).click();
  await page.getByLabel('Name').fill('VIP Gate');
  await page.getByRole('switch', { name: 'Every day' }).click();
  await page.getByRole('checkbox', { name: 'Day 2 · Closing' }).check();
  await saveScreen(page, 'manage-new-list-320-dark', { fullPage: true });
  expect(await axeViolations(page, 'new check-in list, dark, 320 px')).toEqual([]);
  await page.getByRole('button', { name: 'Add list' }).click();
  await expect(page.getByRole('button', { name: 'Edit VIP Gate' })).toBeVisible();
  // The 'added' toast gone, the page as it stays.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  await saveScreen(page, 'manage-lists-320-dark', { fullPage: true });
  expect(await axeViolations(page, 'check-in lists, dark, 320 px')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await axeViolations(page, 'check-in lists, 320 px')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/manage/events/${eventId}`);

  await page.getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Added the check-in list VIP Gate' })).toContainText('Day 2');
  const created = page.getByRole('listitem').filter({ hasText: 'Created the event' });
  await expect(created).toContainText('Demo Staff');
  await expect(created).toContainText('1. Opening');
  await saveScreen(page, 'manage-activity-320-dark', { fullPage: true });
  expect(await axeViolations(page, 'activity, dark')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
  await saveScreen(page, 'manage-activity-320-light', { fullPage: true });
  expect(await axeViolations(page, 'activity, 320 px')).toEqual([]);
  await page.getByText('Deutsch', { exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Aktivität' })).toBeVisible();
  await expect(created).toHaveCount(0);
  await expect(page.getByRole('listitem').filter({ hasText: 'Veranstaltung angelegt' })).toContainText('Titel');
  await saveScreen(page, 'manage-activity-320-de', { fullPage: true });

  // The door team: invite a new staff member; the link goes out by mail (the outbox in development).
  await page.getByText('English', { exact: true }).click();
  await page.goto('/manage');
  await page.getByRole('link', { name: 'Door team' }).click();
  await page.getByLabel('E-mail address').fill(NEW_STAFF.email);
  await page.getByLabel('Role', { exact: true }).selectOption('staff');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('button', { name: `Revoke the invitation of ${NEW_STAFF.email}` })).toBeVisible();
  await saveScreen(page, 'manage-team-320-light', { fullPage: true });
  expect(await axeViolations(page, 'door team')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await axeViolations(page, 'door team, dark')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
  const invitationPath = await waitForInvitationPath(ownServer.current.dataDir, NEW_STAFF.email);
  // The invitation is on the organization's own Activity page (decision 126).
  await page.goto('/manage');
  await page.getByRole('link', { name: 'Team and devices activity' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Invited someone' })).toContainText(NEW_STAFF.email);
  expect(await axeViolations(page, 'organization activity')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await saveScreen(page, 'manage-organization-activity-320-dark', { fullPage: true });
  expect(await axeViolations(page, 'organization activity, dark')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });

  // The tickets: uploaded in the browser, beside the running server. One row is bad (an unknown
  // day): the preview names it with its line, and the import skips it.
  await page.goto(`/manage/events/${eventId}`);
  await page.getByRole('link', { name: 'Tickets', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tickets' })).toBeVisible();
  await page.getByLabel('CSV file').setInputFiles({
    name: 'tickets.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`code,holder_name,ticket_type,days\n${TICKET.code},${TICKET.holderName},${TICKET.ticketType},all\nPIER-NIGHTS-0002,Bad Day,${TICKET.ticketType},9\n`),
  });
  await expect(page.getByText('1 ticket of 2 rows can be imported.')).toBeVisible();
  await expect(page.getByText('Line 3: unknown day 9 for this event (its days: 1, 2)')).toBeVisible();
  await page.emulateMedia({ colorScheme: 'dark' });
  await saveScreen(page, 'manage-tickets-preview-320-dark', { fullPage: true });
  expect(await axeViolations(page, 'tickets preview, dark, 320 px')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: 'Import 1 ticket' }).click();
  await expect(page.getByText('Imported 1 ticket of 2 rows.')).toBeVisible();
  await page.getByLabel('Holder name or code').fill('noor');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await expect(page.getByLabel('Holder', { exact: true })).toHaveValue(TICKET.holderName);
  // Signed codes (decision 135): switched on, this ticket's QR code is downloaded as a browser does;
  // the staff member's phone scans that very image below.
  await page.getByRole('switch', { name: 'Signed QR codes' }).click();
  const [qrDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'QR code', exact: true }).click()]);
  expect(qrDownload.suggestedFilename()).toBe(`${TICKET.code}-signed.png`);
  const signedQrPng = await readFile(await qrDownload.path());
  const signedImage = PNG.sync.read(signedQrPng);
  const signedText = jsQR(new Uint8ClampedArray(signedImage.data), signedImage.width, signedImage.height)?.data ?? '';
  expect(parseSignedTicket(signedText)).toMatchObject({ eventId, code: TICKET.code });
  await saveScreen(page, 'manage-tickets-320-light', { fullPage: true });
  expect(await axeViolations(page, 'tickets')).toEqual([]);
  // The upload is one entry on the event's Activity page, with its counts (decision 126).
  await page.goto(`/manage/events/${eventId}/activity`);
  const imported = page.getByRole('listitem').filter({ hasText: 'Imported tickets' });
  await expect(imported).toHaveCount(1);
  await expect(imported).toContainText('Tickets added1');
  await expect(imported).toContainText('Rejected rows1');
  await expect(imported).toContainText('Finished');

  // A staff member on another phone.
  const staffContext = await browser.newContext({ baseURL: ownServer.current.url, viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, permissions: ['camera'] });
  try {
    const staff = await staffContext.newPage();
    await staff.goto(invitationPath);
    await expect(staff.getByRole('heading', { name: 'Join a door team' })).toBeVisible();
    await staff.getByLabel('Your name').fill(NEW_STAFF.name);
    await staff.getByLabel('Username').fill(NEW_STAFF.username);
    await staff.getByLabel('New password', { exact: true }).fill(NEW_STAFF.password);
    await staff.getByLabel('Confirm new password').fill(NEW_STAFF.password);
    await saveScreen(staff, 'manage-invitation-360', { fullPage: true });
    expect(await axeViolations(staff, 'invitation')).toEqual([]);
    await staff.getByRole('button', { name: 'Make my account and join' }).click();
    await expect(staff.getByText('You joined Northwind Live as Staff.')).toBeVisible();
    await staff.getByRole('link', { name: 'Sign in' }).click();
    await expect(staff).toHaveURL(/\/login$/);
    await signIn(staff, { email: NEW_STAFF.username, password: NEW_STAFF.password });
    await chooseOrganization(staff, 'Northwind Live');
    await expect(staff.getByRole('button', { name: new RegExp(TITLE) })).toBeVisible();
    await expect(staff.getByRole('link', { name: 'Manage events' })).toHaveCount(0);
    await chooseEvent(staff, TITLE);
    await chooseDay(staff, 1);
    await expect(staff.getByRole('link', { name: 'Manage events' })).toHaveCount(0);
    await startScanning(staff);
    // The signed QR code the admin downloaded, held to the camera: the server admits its signed
    // text as the ticket (the card names the ticket by the code the text carries).
    await scanImageWithCamera(staff, fakeCamera, signedQrPng);
    await expectVerdict(staff, { isValid: true, holderName: TICKET.holderName });
    await saveScreen(staff, 'manage-staff-approved', { fullPage: false });
    // Typed in, /manage sends staff back to their events.
    await staff.goto('/manage');
    await expect(staff).toHaveURL(/\/event-select$/);
  } finally {
    await staffContext.close();
  }

  // The admin makes the new member a supervisor.
  await page.goto('/manage/team');
  const nadia = page.getByRole('listitem').filter({ hasText: NEW_STAFF.email });
  await nadia.getByLabel(`Role of ${NEW_STAFF.name}`).selectOption('supervisor');
  await nadia.getByRole('button', { name: 'Change role' }).click();
  await expect(nadia.getByRole('button', { name: 'Change role' })).toBeDisabled();
  // Kept by the server: a fresh load shows the new role.
  await page.reload();
  await expect(nadia.getByLabel(`Role of ${NEW_STAFF.name}`)).toHaveValue('supervisor');
  expect(await axeViolations(page, 'door team with members')).toEqual([]);
  await saveScreen(page, 'manage-team-role-changed-320', { fullPage: true });

  // Each step is on record: the organization's Activity page names the acceptance and the new role.
  await page.goto('/manage');
  await page.getByRole('link', { name: 'Team and devices activity' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'An invitation was accepted' })).toContainText(NEW_STAFF.email);
  const roleChanged = page.getByRole('listitem').filter({ hasText: 'Changed a role' });
  await expect(roleChanged).toHaveCount(1);
  await expect(roleChanged).toContainText('Staff → Supervisor');
  await expect(roleChanged).not.toContainText(`${NEW_STAFF.name} →`);
  await saveScreen(page, 'manage-organization-activity-after-join-320', { fullPage: true });

  // The devices page and the events list, in the other theme than the devices journey checks.
  await page.goto('/manage');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage events' })).toBeVisible();
  expect(await axeViolations(page, 'manage list, 320 px')).toEqual([]);
  await page.getByRole('link', { name: 'Door devices' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Door devices' })).toBeVisible();
  expect(await axeViolations(page, 'door devices, 320 px')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/manage');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage events' })).toBeVisible();
  expect(await axeViolations(page, 'manage list, dark, 320 px')).toEqual([]);
});
