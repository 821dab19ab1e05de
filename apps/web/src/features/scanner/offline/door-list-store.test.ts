import { doorListLookupKey } from '@gatecheck/contract';
import { describe, expect, test } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { doorListEntry, makeDoorList } from '@/test/door-list-fixtures.ts';
import { readDoorList, syncDoorList, type FetchDoorList } from './door-list-store.ts';
import { forgetDoorLists } from './forget-door-data.ts';
import { closeOfflineDb, openOfflineDb } from './offline-db.ts';

const scope = { eventId: 'event-1', day: 2 };

/** A fake transport answering the queued bodies (or throwing the queued errors) and recording `since`. */
function scriptedFetch(answers: Array<unknown>) {
  const sinces: Array<string | null> = [];
  const fetch: FetchDoorList = async (_eventId, _day, since) => {
    sinces.push(since);
    const next = answers.shift();
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, sinces };
}

describe('door list store', () => {
  test('changes in a newer format than the kept list (a server that now leaves weak codes out) bring the whole list again: the entries it leaves out go (decision 087)', async () => {
    const db = await openOfflineDb();
    // Kept from an older server: it listed the 6-digit code.
    const old = await makeDoorList([{ code: '123456', holderName: 'Wanda Weak' }, { code: 'AAA-1', holderName: 'Ada' }], { cursor: '100', format: 1 });
    const changes = await makeDoorList([], { cursor: '140', isComplete: false, hasUnlistedCodes: true });
    const full = await makeDoorList([{ code: 'AAA-1', holderName: 'Ada' }], { cursor: '150', hasUnlistedCodes: true });
    const { fetch, sinces } = scriptedFetch([old, changes, full]);
    await syncDoorList(db, scope, fetch);
    expect((await syncDoorList(db, scope, fetch)).status).toBe('synced');
    expect(sinces).toEqual([null, '100', null]);
    const stored = await readDoorList(db, 'event-1', 2);
    expect(stored?.list.cursor).toBe('150');
    expect(stored?.list.tickets.map((entry) => entry.lookupKey)).toEqual([await doorListLookupKey('event-1', 'AAA-1')]);
  });

  test('the first sync downloads the full list, the next asks for changes since its cursor and merges them', async () => {
    const db = await openOfflineDb();
    const full = await makeDoorList([{ code: 'AAA-1', holderName: 'Ada' }, { code: 'BBB-2', holderName: 'Bob' }], { cursor: '100' });
    const changes = { ...(await makeDoorList([{ code: 'BBB-2', holderName: 'Bob', isRevoked: true }, { code: 'CCC-3', holderName: 'Cy' }], { cursor: '140', isComplete: false })) };
    const { fetch, sinces } = scriptedFetch([full, changes]);

    const first = await syncDoorList(db, scope, fetch, new Date('2026-07-11T10:00:00Z'));
    expect(first.status).toBe('synced');
    const second = await syncDoorList(db, scope, fetch, new Date('2026-07-11T10:01:00Z'));
    expect(second.status).toBe('synced');
    expect(sinces).toEqual([null, '100']);

    const stored = await readDoorList(db, 'event-1', 2);
    expect(stored?.list.cursor).toBe('140');
    expect(stored?.syncedAt).toBe('2026-07-11T10:01:00.000Z');
    expect(stored?.list.tickets).toHaveLength(3);
    const bobKey = await doorListLookupKey('event-1', 'bbb-2');
    expect(stored?.list.tickets.find((entry) => entry.lookupKey === bobKey)?.isRevoked).toBe(true);
  });

  test('syncedAt is the device clock as the sync began, before its request: the server made the list after it (docs/decisions/130)', async () => {
    const db = await openOfflineDb();
    const list = await makeDoorList([{ code: 'AAA-1', holderName: 'Ada' }], { cursor: '100' });
    let askedAt = Number.NaN;
    const slowFetch: FetchDoorList = async () => {
      askedAt = Date.now();
      // The answer takes its time: what is kept must not be the time it came.
      await new Promise((resolve) => setTimeout(resolve, 30));
      return list;
    };
    const began = Date.now();
    const outcome = await syncDoorList(db, scope, slowFetch);
    const syncedAt = Date.parse(outcome.stored?.syncedAt ?? '');
    expect(syncedAt).toBeGreaterThanOrEqual(began);
    expect(syncedAt).toBeLessThanOrEqual(askedAt);
  });

  test('a failed download keeps the last good list', async () => {
    const db = await openOfflineDb();
    const full = await makeDoorList([{ code: 'AAA-1', holderName: 'Ada' }]);
    const { fetch } = scriptedFetch([full, new ApiError(0, 'network_error', 'Failed to fetch')]);
    await syncDoorList(db, scope, fetch, new Date('2026-07-11T10:00:00Z'));

    const outcome = await syncDoorList(db, scope, fetch, new Date('2026-07-11T10:05:00Z'));
    expect(outcome.status).toBe('failed');
    const stored = await readDoorList(db, 'event-1', 2);
    expect(stored?.list.tickets).toHaveLength(1);
    expect(stored?.syncedAt).toBe('2026-07-11T10:00:00.000Z');
  });

  test('a corrupt download is discarded, the last good list stays, and the next sync asks for a full list', async () => {
    const db = await openOfflineDb();
    const full = await makeDoorList([{ code: 'AAA-1', holderName: 'Ada' }], { cursor: '100' });
    const corrupt = { ...full, tickets: [{ lookupKey: 'x', holderName: 'Ada Lovelace in clear' }] };
    const { fetch, sinces } = scriptedFetch([full, corrupt, full]);
    await syncDoorList(db, scope, fetch);

    expect((await syncDoorList(db, scope, fetch)).status).toBe('corrupt');
    expect((await readDoorList(db, 'event-1', 2))?.list.tickets).toHaveLength(1);
    expect((await syncDoorList(db, scope, fetch)).status).toBe('synced');
    expect(sinces).toEqual([null, '100', null]);
  });

  test("a list of another event or day is discarded as corrupt", async () => {
    const db = await openOfflineDb();
    const otherDay = await makeDoorList([{ code: 'AAA-1', holderName: 'Ada' }], { day: 3 });
    const { fetch } = scriptedFetch([otherDay]);
    expect((await syncDoorList(db, scope, fetch)).status).toBe('corrupt');
    expect(await readDoorList(db, 'event-1', 2)).toBeNull();
  });

  test("a phone moved to list B whose kept list is list A's gets B's list in full, not B's changes merged onto A's (docs/decisions/127)", async () => {
    const db = await openOfflineDb();
    // A bound phone's key names no list: the server answers with the list it is bound to.
    const atA = { ...(await makeDoorList([{ code: 'AAA-1', holderName: 'Ada' }], { cursor: '100' })), checkInListId: 'list-a' };
    const changesAtB = { ...(await makeDoorList([{ code: 'BBB-2', holderName: 'Bob' }], { cursor: '140', isComplete: false })), checkInListId: 'list-b' };
    const fullAtB = { ...(await makeDoorList([{ code: 'BBB-2', holderName: 'Bob' }, { code: 'CCC-3', holderName: 'Cy' }], { cursor: '150' })), checkInListId: 'list-b' };
    const { fetch, sinces } = scriptedFetch([atA, changesAtB, fullAtB]);
    await syncDoorList(db, scope, fetch);

    const outcome = await syncDoorList(db, scope, fetch);
    expect(outcome.status).toBe('synced');
    expect(sinces).toEqual([null, '100', null]);
    const stored = await readDoorList(db, 'event-1', 2);
    expect(stored?.list.checkInListId).toBe('list-b');
    expect(stored?.list.cursor).toBe('150');
    const keys = await Promise.all(['BBB-2', 'CCC-3'].map((code) => doorListLookupKey('event-1', code)));
    expect(stored?.list.tickets.map((entry) => entry.lookupKey).toSorted()).toEqual(keys.toSorted());
  });

  test('door lists forgotten while an update is on its way (a moved phone at app start) stay forgotten: the update writes nothing back', async () => {
    const db = await openOfflineDb();
    const atA = await makeDoorList([{ code: 'AAA-1', holderName: 'Ada' }], { cursor: '100' });
    await syncDoorList(db, scope, scriptedFetch([atA]).fetch);
    let answer: (body: unknown) => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      void syncDoorList(db, scope, () => {
        resolve();
        return new Promise((done) => (answer = done));
      }).then((outcome) => (finished = outcome));
    });
    let finished: Awaited<ReturnType<typeof syncDoorList>> | undefined;
    await asked;

    await forgetDoorLists();
    answer(await makeDoorList([{ code: 'DDD-4', holderName: 'Di' }], { cursor: '140', isComplete: false }));
    await expect.poll(() => finished).toBeDefined();

    expect(finished?.status).toBe('failed');
    expect(finished?.stored).toBeNull();
    expect(await readDoorList(db, 'event-1', 2)).toBeNull();
    expect(await db.getAll('doorLists')).toEqual([]);
  });

  test('the list survives closing and reopening the database, and holds no holder name in clear', async () => {
    const db = await openOfflineDb();
    const { fetch } = scriptedFetch([await makeDoorList([{ code: 'AAA-1', holderName: 'Ada Lovelace' }])]);
    await syncDoorList(db, scope, fetch);
    await closeOfflineDb();

    const reopened = await openOfflineDb();
    const stored = await readDoorList(reopened, 'event-1', 2);
    expect(stored?.list.tickets[0]?.lookupKey).toBe((await doorListEntry({ code: 'AAA-1', holderName: 'x' })).lookupKey);
    const raw = JSON.stringify(await reopened.getAll('doorLists'));
    expect(raw).not.toContain('Ada Lovelace');
    expect(raw).not.toContain('AAA-1');
  });
});
