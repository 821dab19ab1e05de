/**
 * The outbox on a phone whose OS cleared the WebView's storage (docs/decisions/095), on Capacitor's
 * real Android bridge: the stand-in's Filesystem keeps the app's files apart from IndexedDB, so
 * deleting the IndexedDB database is what the OS does to website data, and a new `openOfflineDb()`
 * is the app started again.
 */
import { standIn } from '@/test/android-bridge-install.ts';
import { doorListLookupKey } from '@gatecheck/contract';
import { deleteDB } from 'idb';
import { testDay, testEvent, testUser } from '@/test/fixtures.ts';
import { offlineScan } from '@/test/outbox-fixtures.ts';
import { expect, test } from 'vitest';
import { deviceFilesSettled, OUTBOX_COPY_FOLDER } from './durable-copy.ts';
import { closeOfflineDb, eventDayKey, OFFLINE_DB_NAME, openOfflineDb } from './offline-db.ts';
import { queueOfflineScan, readOutbox, uploadOutbox, type SendOfflineScans } from './outbox.ts';

/** The names of the outbox's copies among the app's files (as the stand-in keeps them). */
function copiedScanIds(): string[] {
  const names: string[] = [];
  for (let index = 0; index < localStorage.length; index += 1) {
    const key = localStorage.key(index) ?? '';
    const match = new RegExp(`^standin-files:[A-Z_]+:${OUTBOX_COPY_FOLDER}/(.+)\\.json$`).exec(key);
    if (match?.[1]) names.push(decodeURIComponent(match[1]));
  }
  return names.sort();
}

/** The OS clears the WebView's website data: the IndexedDB database goes, the app's files stay. */
async function osClearsWebViewStorage(): Promise<void> {
  await closeOfflineDb();
  await deleteDB(OFFLINE_DB_NAME);
}

test('scans queued on the phone come back after the OS cleared the WebView storage, with their admissions, and are sent', async () => {
  const db = await openOfflineDb();
  await queueOfflineScan(db, offlineScan(1));
  await queueOfflineScan(db, offlineScan(2, { verdict: 'denied', reason: 'not_found' }));
  await queueOfflineScan(db, offlineScan(3));
  await deviceFilesSettled();
  expect(copiedScanIds()).toEqual([offlineScan(1).scanId, offlineScan(2).scanId, offlineScan(3).scanId]);
  expect(standIn().calls.filter((call) => call.pluginId === 'Filesystem' && call.methodName === 'rename')).toHaveLength(3);

  await osClearsWebViewStorage();
  const restarted = await openOfflineDb();
  const outbox = await readOutbox(restarted);
  expect(outbox.map((queued) => [queued.code, queued.verdict, queued.seq])).toEqual([
    ['GOOD-1', 'approved', 1],
    ['GOOD-2', 'denied', 2],
    ['GOOD-3', 'approved', 3],
  ]);
  // The device's own admissions are back: the same ticket is not let in twice offline.
  for (const n of [1, 3]) {
    const key = `${eventDayKey(testEvent.id, testDay.day)}|${await doorListLookupKey(testEvent.id, `GOOD-${n}`)}`;
    expect(await restarted.get('localCheckIns', key)).toEqual({ checkedInAt: offlineScan(n).scannedAt, checkedInBy: '', isOnline: false });
  }
  // A scan queued after the restore continues the scan order.
  await queueOfflineScan(restarted, offlineScan(4));
  expect((await readOutbox(restarted)).at(-1)?.seq).toBe(4);

  const sent: string[] = [];
  const send: SendOfflineScans = async (_eventId, _day, scans) => {
    sent.push(...scans.map((scan) => scan.code));
    return { receivedAt: new Date().toISOString(), results: scans.map((scan, index) => ({ index, scanId: scan.scanId, status: 'recorded' as const })) };
  };
  expect(await uploadOutbox(restarted, testUser.id, send)).toMatchObject({ sent: 4, failed: false });
  expect(sent).toEqual(['GOOD-1', 'GOOD-2', 'GOOD-3', 'GOOD-4']);
  await deviceFilesSettled();
  expect(copiedScanIds()).toEqual([]);
});

test('an app killed mid-upload, and then cleared by the OS, still has every scan the server did not answer', async () => {
  const db = await openOfflineDb();
  for (const n of [11, 12, 13]) await queueOfflineScan(db, offlineScan(n));
  // The upload is under way when the app dies: the request never gets its answer.
  let requested = false;
  const hangs: SendOfflineScans = () => {
    requested = true;
    return new Promise(() => undefined);
  };
  void uploadOutbox(db, testUser.id, hangs);
  await expect.poll(() => requested).toBe(true);
  await deviceFilesSettled();
  await osClearsWebViewStorage();

  const restarted = await openOfflineDb();
  expect((await readOutbox(restarted)).map((queued) => queued.code)).toEqual(['GOOD-11', 'GOOD-12', 'GOOD-13']);
});

test('a set-aside scan stays set aside after a restore (never sent again), and a second start restores nothing twice', async () => {
  const db = await openOfflineDb();
  await queueOfflineScan(db, offlineScan(21));
  const refuses: SendOfflineScans = async (_eventId, _day, scans) => ({
    receivedAt: new Date().toISOString(),
    results: scans.map((scan, index) => ({ index, scanId: scan.scanId, status: 'rejected' as const, reason: 'not_found' as const, message: 'Ticket not found.' })),
  });
  expect(await uploadOutbox(db, testUser.id, refuses)).toMatchObject({ setAside: 1 });
  await deviceFilesSettled();
  await osClearsWebViewStorage();

  const restarted = await openOfflineDb();
  expect(await readOutbox(restarted)).toMatchObject([{ code: 'GOOD-21', setAside: { reason: 'not_found', message: 'Ticket not found.' } }]);
  // No admission comes back for a scan the server refused.
  const key = `${eventDayKey(testEvent.id, testDay.day)}|${await doorListLookupKey(testEvent.id, 'GOOD-21')}`;
  expect(await restarted.get('localCheckIns', key)).toBeUndefined();

  // The app started again without the OS clearing anything: the mark says IndexedDB is whole.
  const readsBefore = standIn().calls.filter((call) => call.pluginId === 'Filesystem' && call.methodName === 'readFile').length;
  await closeOfflineDb();
  await openOfflineDb();
  expect(standIn().calls.filter((call) => call.pluginId === 'Filesystem' && call.methodName === 'readFile')).toHaveLength(readsBefore);
});

test("admissions put back from the app's files stay at the check-in list they were made at (docs/decisions/129)", async () => {
  const vipGate = '22222222-2222-4222-8222-222222222222';
  const db = await openOfflineDb();
  await queueOfflineScan(db, offlineScan(31, { checkInListId: vipGate }));
  await deviceFilesSettled();
  await osClearsWebViewStorage();
  const restarted = await openOfflineDb();
  const lookupKey = await doorListLookupKey(testEvent.id, 'GOOD-31');
  expect(await restarted.get('localCheckIns', `${eventDayKey(testEvent.id, testDay.day, vipGate)}|${lookupKey}`)).toEqual({ checkedInAt: offlineScan(31).scannedAt, checkedInBy: '', isOnline: false });
  // Not at the event's first list, where the guest has not been.
  expect(await restarted.get('localCheckIns', `${eventDayKey(testEvent.id, testDay.day)}|${lookupKey}`)).toBeUndefined();
});
