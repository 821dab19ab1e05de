/**
 * The offline outbox is sent from every signed-in screen, not only from the scanner (issue 12):
 * scans queued on this device (real IndexedDB through fake-indexeddb, the real outbox module) reach
 * the server (MSW, answers validated by the contract) while staff are on another screen.
 */
import { screen, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import { paths } from '@/config/paths.ts';
import { openOfflineDb } from '@/features/scanner/offline/offline-db.ts';
import { queueOfflineScan, readOutbox } from '@/features/scanner/offline/outbox.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { COLLEAGUE_ID, offlineScan, serveUpload } from '@/test/outbox-fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const selection = { organization: testOrganization, event: testEvent, day: testDay };

test('scans queued offline are sent from another signed-in screen, in scan order, and leave the outbox', async () => {
  const db = await openOfflineDb();
  await queueOfflineScan(db, offlineScan(1));
  await queueOfflineScan(db, offlineScan(2, { verdict: 'denied', reason: 'already_checked_in' }));
  const upload = serveUpload();

  renderApp({ route: paths.changePassword, selection });
  expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();

  await waitFor(() => expect(upload.batches).toHaveLength(1));
  expect(upload.batches[0]?.map((scan) => [scan.code, scan.verdict])).toEqual([
    ['GOOD-1', 'approved'],
    ['GOOD-2', 'denied'],
  ]);
  await waitFor(async () => expect(await readOutbox(await openOfflineDb())).toEqual([]));
});

test("another user's queued scans are sent under this session, naming their maker (decision 077)", async () => {
  const db = await openOfflineDb();
  await queueOfflineScan(db, offlineScan(1, { userId: COLLEAGUE_ID }));
  await queueOfflineScan(db, offlineScan(2));
  const upload = serveUpload();

  renderApp({ route: paths.changePassword, selection });
  await waitFor(() => expect(upload.batches).toHaveLength(1));
  expect(upload.batches.flat().map((scan) => [scan.code, scan.scannedBy])).toEqual([
    ['GOOD-1', COLLEAGUE_ID],
    ['GOOD-2', undefined],
  ]);
  await waitFor(async () => expect(await readOutbox(await openOfflineDb())).toEqual([]));
});

test('with the server unreachable the scans stay queued and are sent when a retry gets through', { timeout: 20_000 }, async () => {
  const db = await openOfflineDb();
  await queueOfflineScan(db, offlineScan(1));
  let isUp = false;
  const upload = serveUpload(() => isUp);

  renderApp({ route: paths.changePassword, selection });
  await waitFor(() => expect(upload.attempts()).toBeGreaterThanOrEqual(1));
  expect(upload.batches).toHaveLength(0);
  expect((await readOutbox(await openOfflineDb())).map((item) => item.code)).toEqual(['GOOD-1']);

  // The next try comes 1 s, then 2 s … after a failure (SPEC §9's backoff).
  isUp = true;
  await waitFor(() => expect(upload.batches).toHaveLength(1), { timeout: 10_000 });
  await waitFor(async () => expect(await readOutbox(await openOfflineDb())).toEqual([]));
});
