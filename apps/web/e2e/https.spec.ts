/**
 * Phones on the venue network (issue 15 item 10): browsers give a page camera access only in a
 * secure context (https, or localhost). A server started with `HTTPS=true` and no certificate of its
 * own is opened at this machine's LAN address — the way a phone reaches it — in Chromium, which
 * accepts the self-signed certificate as a staff member does once (ignoreHTTPSErrors). The page is a
 * secure context, sign-in works, the session cookie is Secure, and a camera scan is APPROVED.
 */
import { networkInterfaces } from 'node:os';
import { findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { TicketPool, readDemoTickets } from './support/demo-tickets.ts';
import { test as base, expect } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, openApp, scanWithCamera, signIn, startScanning } from './support/main-job.ts';
import { type GatecheckServer, startGatecheckServer } from './support/server.ts';

/** This machine's first non-loopback IPv4 address (as a phone would use), else 127.0.0.1. */
function lanAddress(): string {
  const lan = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .find((entry) => entry.family === 'IPv4' && !entry.internal);
  return lan?.address ?? '127.0.0.1';
}

const test = base.extend<{ httpsTickets: TicketPool }, { httpsServer: GatecheckServer }>({
  httpsServer: [
    async ({}, use, workerInfo) => {
      const server = await startGatecheckServer(`https-${workerInfo.workerIndex}`, { host: lanAddress(), env: { HTTPS: 'true' } });
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ httpsServer }, use) => {
    await use(httpsServer.url);
  },
  httpsTickets: async ({ httpsServer }, use) => {
    await use(new TicketPool(readDemoTickets(httpsServer.dataDir)));
  },
});

test.use({ ignoreHTTPSErrors: true });

test('over HTTPS=true at the LAN address, staff sign in and the camera checks a ticket in (a secure context, a Secure session cookie)', async ({
  page,
  fakeCamera,
  httpsServer,
  httpsTickets,
}) => {
  expect(httpsServer.url).toMatch(/^https:\/\//);
  await openApp(page);
  expect(new URL(page.url()).origin).toBe(httpsServer.url);
  expect(await page.evaluate(() => window.isSecureContext), 'camera access needs a secure context').toBe(true);
  expect(await page.evaluate(() => typeof navigator.mediaDevices?.getUserMedia), 'getUserMedia exists only in a secure context').toBe('function');

  await signIn(page);
  const cookies = await page.context().cookies(httpsServer.url);
  expect(cookies.map((cookie) => cookie.name)).toContain('gatecheck_session');
  expect(cookies.filter((cookie) => !cookie.secure), 'cookies without Secure over https').toEqual([]);

  const { organization, event } = await findLiveThreeDayEvent(page.request);
  await chooseOrganization(page, organization.name);
  await chooseEvent(page, event.title);
  await chooseDay(page, todaysDayNumber(event));
  const ticket = httpsTickets.take(`for "${event.title}" on all days`, (candidate) => candidate.eventTitle === event.title && candidate.days === 'all');
  await startScanning(page);
  await scanWithCamera(page, fakeCamera, ticket.code);
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
});
