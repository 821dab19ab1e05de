/**
 * The offline side at a chosen check-in list (docs/decisions/100, 109), through the real modules:
 * the door list is asked for and kept per list (two lists' lists never mix), the device decides by
 * the list's rule ('Not valid at this entrance — valid at Main entrance'), its admissions are per
 * list, and queued scans are sent in batches of one list that name it. MSW answers the server.
 */
import { apiPaths, type CheckInList, DoorList, OfflineScan, OfflineScanBatch, type OfflineScanBatchResponse } from '@gatecheck/contract';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, test } from 'vitest';
import { denialText } from '@/lib/denial-text.ts';
import { makeDoorList } from '@/test/door-list-fixtures.ts';
import { offlineScan } from '@/test/outbox-fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { testUser } from '@/test/fixtures.ts';
import { readDoorList, syncDoorList } from './door-list-store.ts';
import { fetchDoorList, roundSender } from './offline-api.ts';
import { decideOffline } from './offline-decision.ts';
import { openOfflineDb } from './offline-db.ts';
import { hasUnsentAdmission, queueOfflineScan, uploadOutbox } from './outbox.ts';

const mainEntrance: CheckInList = { id: '11111111-1111-4111-8111-111111111111', name: 'Main entrance', position: 1, ticketTypes: null, days: null };
const vipGate: CheckInList = { id: '22222222-2222-4222-8222-222222222222', name: 'VIP Gate', position: 2, ticketTypes: ['VIP'], days: null };
const tickets = [
  { code: 'GEN-1', holderName: 'Gene Ral', ticketType: 'General' },
  { code: 'VIP-1', holderName: 'Vera Important', ticketType: 'VIP' },
];

/** The door-list endpoint: each list's door list, recording the `checkInListId` asked for. */
function serveDoorLists() {
  const asked: Array<string | null> = [];
  server.use(
    http.get(apiUrl(apiPaths.doorList), async ({ request }) => {
      const listId = new URL(request.url).searchParams.get('checkInListId');
      asked.push(listId);
      const list = await makeDoorList(tickets);
      // At the VIP Gate the general ticket is already checked in at the main entrance — not here.
      return HttpResponse.json<DoorList>({ ...list, checkInListId: listId ?? mainEntrance.id, checkInLists: [mainEntrance, vipGate], cursor: listId === vipGate.id ? '200' : '100' });
    }),
  );
  return asked;
}

let db: Awaited<ReturnType<typeof openOfflineDb>>;
beforeEach(async () => {
  db = await openOfflineDb();
});

describe('offline at a check-in list (docs/decisions/109)', () => {
  test("two lists' door lists are asked for by list and kept apart; the first list without a name keeps its key", async () => {
    const asked = serveDoorLists();
    await syncDoorList(db, { eventId: 'event-1', day: 2, checkInListId: vipGate.id }, fetchDoorList);
    await syncDoorList(db, { eventId: 'event-1', day: 2 }, fetchDoorList);
    expect(asked).toEqual([vipGate.id, null]);
    expect((await readDoorList(db, 'event-1', 2, vipGate.id))?.list.cursor).toBe('200');
    expect((await readDoorList(db, 'event-1', 2))?.list.cursor).toBe('100');
    expect((await readDoorList(db, 'event-1', 2, mainEntrance.id))).toBeNull();
    expect((await db.getAllKeys('doorLists')).sort()).toEqual(['event-1|2', `event-1|2|${vipGate.id}`]);
  });

  test('at the VIP Gate, offline, a general ticket is DENIED naming the main entrance and a VIP ticket is APPROVED; admissions count per list', async () => {
    serveDoorLists();
    const vip = await syncDoorList(db, { eventId: 'event-1', day: 2, checkInListId: vipGate.id }, fetchDoorList);
    if (vip.status !== 'synced') throw new Error('no door list');
    const doorList = vip.stored.list;
    const input = { eventId: 'event-1', day: 2, checkInListId: vipGate.id, now: new Date('2026-07-11T10:00:00Z'), staffName: 'Sam', doorList, signingKeys: [], event: { ...doorList.event, name: 'Harbour' } };

    const general = await decideOffline(db, { ...input, code: 'GEN-1' });
    if (!general || general.isValid) throw new Error('expected a denial');
    expect(general.denial.reason).toBe('not_on_list');
    expect(denialText(general.denial)).toBe('Not valid at this entrance — valid at Main entrance');

    expect((await decideOffline(db, { ...input, code: 'VIP-1' }))?.isValid).toBe(true);
    // Once per list and day: again at the VIP Gate is DENIED, at the main entrance it is not this device's admission.
    const again = await decideOffline(db, { ...input, code: 'VIP-1' });
    expect(again?.isValid === false && again.denial.reason).toBe('already_checked_in');
    const main = await decideOffline(db, { ...input, checkInListId: undefined, doorList: { ...doorList, checkInListId: mainEntrance.id }, code: 'VIP-1' });
    expect(main?.isValid).toBe(true);
  });

  test("queued scans go in batches of one list that name it; an admission unsent at one list is not another list's", async () => {
    const batches: Array<{ checkInListId?: string | undefined; scans: OfflineScan[] }> = [];
    server.use(
      http.post(apiUrl(apiPaths.offlineScans), async ({ request }) => {
        const parsed = OfflineScanBatch.parse(await request.json());
        const batch = { checkInListId: parsed.checkInListId, scans: parsed.scans.map((scan) => OfflineScan.parse(scan)) };
        batches.push(batch);
        return HttpResponse.json<OfflineScanBatchResponse>({ receivedAt: new Date().toISOString(), results: batch.scans.map((scan, index) => ({ index, scanId: scan.scanId, status: 'recorded' })) });
      }),
    );
    await queueOfflineScan(db, offlineScan(1, { checkInListId: vipGate.id }));
    await queueOfflineScan(db, offlineScan(2));
    await queueOfflineScan(db, offlineScan(3, { checkInListId: vipGate.id }));
    const scope = { eventId: offlineScan(1).eventId, day: offlineScan(1).day, code: 'GOOD-1' };
    expect(await hasUnsentAdmission(db, { ...scope, checkInListId: vipGate.id })).toBe(true);
    expect(await hasUnsentAdmission(db, scope)).toBe(false);

    const outcome = await uploadOutbox(db, testUser.id, await roundSender());
    expect(outcome.sent).toBe(3);
    expect(batches.map((batch) => [batch.checkInListId ?? null, batch.scans.map((scan) => scan.code)])).toEqual([
      [vipGate.id, ['GOOD-1']],
      [null, ['GOOD-2']],
      [vipGate.id, ['GOOD-3']],
    ]);
  });
});
