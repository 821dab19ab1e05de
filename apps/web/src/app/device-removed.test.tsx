/**
 * A door device removed by its organizer (docs/decisions/108): the server answers 401
 * `device_revoked`. The app says 'This device was removed by your organizer', sends what it admitted
 * offline, deletes the door lists and guest data and keeps nothing signed in. Real IndexedDB
 * (fake-indexeddb), the real outbox; the server is MSW.
 */
import { apiPaths, OfflineScan, OfflineScanBatch, type OfflineScanBatchResponse, organizationEventsPath } from '@gatecheck/contract';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { openOfflineDb } from '@/features/scanner/offline/offline-db.ts';
import { queueOfflineScan, readOutbox } from '@/features/scanner/offline/outbox.ts';
import { getSelection, selectOrganization } from '@/lib/selection.ts';
import { readStoredUser, writeStoredUser } from '@/lib/stored-user.ts';
import { testOrganization, testUser } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { offlineScan, serveUpload } from '@/test/outbox-fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const REMOVED = { code: 'device_revoked', message: 'This device was removed by your organizer.' };

/** A device with one admission not yet sent, a door list and a local admission. */
async function deviceWithDoorData() {
  const db = await openOfflineDb();
  await queueOfflineScan(db, offlineScan(1));
  await db.put('doorLists', { anything: 'sealed guest data' }, 'event-1|2');
  await db.put('localCheckIns', { at: 'now' }, 'event-1|2|key');
  return db;
}

async function expectDoorDataGone() {
  const db = await openOfflineDb();
  // The stored user goes last (its token sends the outbox first).
  await waitFor(async () => expect(await readStoredUser()).toBeNull());
  expect(await db.count('doorLists')).toBe(0);
  expect(await db.count('localCheckIns')).toBe(0);
  expect(getSelection().organization).toBeNull();
}

test('removed mid-shift: the next call shows the removal, the admission is sent, then the door data is deleted', async () => {
  await deviceWithDoorData();
  const upload = serveUpload();
  server.use(http.get(apiUrl(organizationEventsPath(testOrganization.id)), () => errorResponse(401, REMOVED)));
  const { router } = renderApp({ route: '/event-select', selection: { organization: testOrganization } });
  expect(await screen.findByText('This device was removed by your organizer', { selector: '[role=status]' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
  await expectDoorDataGone();
  expect(upload.batches.flat().map((scan) => scan.code)).toContain('GOOD-1');
  expect(await readOutbox(await openOfflineDb())).toEqual([]);
});

test('removed while the app was closed: the session check at start finds it, sends the admission, deletes the rest', async () => {
  await deviceWithDoorData();
  await writeStoredUser(testUser);
  const upload = serveUpload();
  server.use(http.get(apiUrl(apiPaths.usersMe), () => errorResponse(401, REMOVED)));
  renderApp({ route: '/event-select', user: null, checkSession: true, selection: { organization: testOrganization } });
  expect(await screen.findByText('This device was removed by your organizer', { selector: '[role=status]' })).toBeInTheDocument();
  await expectDoorDataGone();
  expect(upload.batches.flat().map((scan) => scan.code)).toEqual(['GOOD-1']);
});

test('a removal with no network to send on keeps the admission queued for whoever signs in next', async () => {
  await deviceWithDoorData();
  await writeStoredUser(testUser);
  serveUpload(() => false);
  server.use(http.get(apiUrl(apiPaths.usersMe), () => errorResponse(401, REMOVED)));
  renderApp({ route: '/event-select', user: null, checkSession: true });
  expect(await screen.findByText('This device was removed by your organizer', { selector: '[role=status]' })).toBeInTheDocument();
  await expectDoorDataGone();
  expect((await readOutbox(await openOfflineDb())).map((item) => item.code)).toEqual(['GOOD-1']);
});

test('someone who signs in while the removed device sends its scans keeps that sign-in and the organization chosen since', async () => {
  const db = await deviceWithDoorData();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let isSending = false;
  server.use(
    http.post(apiUrl(apiPaths.offlineScans), async ({ request }) => {
      isSending = true;
      const scans = OfflineScanBatch.parse(await request.json()).scans.map((scan) => OfflineScan.parse(scan));
      await held;
      return HttpResponse.json<OfflineScanBatchResponse>({ receivedAt: new Date().toISOString(), results: scans.map((scan, index) => ({ index, scanId: scan.scanId, status: 'recorded' })) });
    }),
    http.get(apiUrl(organizationEventsPath(testOrganization.id)), () => errorResponse(401, REMOVED)),
  );
  renderApp({ route: '/event-select', selection: { organization: testOrganization } });
  expect(await screen.findByText('This device was removed by your organizer', { selector: '[role=status]' })).toBeInTheDocument();
  await waitFor(() => expect(isSending).toBe(true));
  // Meanwhile a staff member signs in on this phone (what a sign-in stores) and chooses an organization.
  const staff = { ...testUser, id: 'user-2', username: 'sam', token: 'staff-token' };
  const theirs = { ...testOrganization, id: 'org-2', name: 'Their organization' };
  await writeStoredUser(staff);
  await selectOrganization(theirs);
  release();
  // The removal goes on to the end: the removed device's door data goes...
  await waitFor(async () => expect(await db.count('doorLists')).toBe(0));
  expect(await readOutbox(db)).toEqual([]);
  await new Promise((resolve) => setTimeout(resolve, 200));
  // ...but the new sign-in and its choice stay.
  expect(await readStoredUser()).toEqual(staff);
  expect(getSelection().organization).toEqual(theirs);
});
