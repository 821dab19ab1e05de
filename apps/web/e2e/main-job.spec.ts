/**
 * Issue 2's end-to-end test of the main job (SPEC §1): sign in, organization, the live 3-day event,
 * day 2, scan a real QR code from the (fake) camera → APPROVED, the same code again → DENIED, another
 * ticket typed by hand → APPROVED. Real server, real database, real decoder. Every screen is saved to
 * e2e/artifacts/ (the README shows scanner-approved.png).
 */
import { findLiveThreeDayEvent } from './support/demo-scope.ts';
import { admitsDay } from './support/demo-tickets.ts';
import { expect, test } from './support/fixtures.ts';
import {
  chooseDay,
  chooseEvent,
  chooseOrganization,
  expectVerdict,
  openApp,
  scanWithCamera,
  screen,
  signIn,
  startScanning,
  verifyByHand,
} from './support/main-job.ts';

const DAY = 2;

test('staff can check a ticket in by camera once, are denied the same ticket again, and can check in another by typing its code', async ({
  page,
  fakeCamera,
  ticketPool,
  saveScreen,
  baseURL,
}) => {
  // Venues without internet and the native app need every asset (the decoder's .wasm included)
  // served by our own server: record every request the page makes and check its origin at the end.
  const foreignRequests: string[] = [];
  let wasmRequests = 0;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.wasm')) wasmRequests += 1;
    if (['data:', 'blob:'].includes(url.protocol)) return;
    if (url.origin !== new URL(baseURL ?? '').origin) foreignRequests.push(request.url());
  });

  await openApp(page);
  await saveScreen(page, 'login');

  await signIn(page);
  // The page shares its session cookie with page.request: read the seed's names as the demo user.
  const { organization, event } = await findLiveThreeDayEvent(page.request);
  await expect(screen(page).getByText(organization.name)).toBeVisible();
  await saveScreen(page, 'organization-select');

  await chooseOrganization(page, organization.name);
  await expect(screen(page).getByText(event.title)).toBeVisible();
  await saveScreen(page, 'event-select');

  await chooseEvent(page, event.title);
  await saveScreen(page, 'day-select');

  await chooseDay(page, DAY);
  await expect(screen(page).getByText(event.title)).toBeVisible();
  await saveScreen(page, 'scanner');

  const scanned = ticketPool.take(`for "${event.title}" on all days`, (ticket) => ticket.eventTitle === event.title && ticket.days === 'all');
  const typed = ticketPool.take(`for "${event.title}" on day ${DAY}`, (ticket) => ticket.eventTitle === event.title && admitsDay(ticket, DAY));

  await startScanning(page);
  await saveScreen(page, 'scanner-panel');

  await scanWithCamera(page, fakeCamera, scanned.code);
  await expectVerdict(page, { isValid: true, holderName: scanned.holderName });
  await saveScreen(page, 'scanner-approved-toast');
  // The README's picture: the header (event, day) and the result card, once the toasts have gone.
  await expect(page.getByText('Access granted')).toHaveCount(0, { timeout: 30_000 });
  await saveScreen(page, 'scanner-approved');

  await scanWithCamera(page, fakeCamera, scanned.code);
  await expectVerdict(page, { isValid: false, because: /^Already checked in at .+ by Demo Staff$/ });
  await saveScreen(page, 'scanner-denied');

  fakeCamera.showBlank();
  await verifyByHand(page, typed.code);
  await expectVerdict(page, { isValid: true, holderName: typed.holderName });
  await expect(page.getByLabel('Or enter ticket ID manually:')).toHaveValue('');
  await saveScreen(page, 'scanner-manual-approved');

  expect(wasmRequests, 'the QR decoder loads its self-hosted .wasm').toBeGreaterThan(0);
  expect(foreignRequests, 'requests that left the app\'s own origin').toEqual([]);
});
