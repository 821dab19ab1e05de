import { offlineScanProof, type OfflineScan, type OfflineScanBatchResponse } from '@gatecheck/contract';
import { describe, expect, test, vi } from 'vitest';
import { COLLEAGUE_ID } from '@/test/outbox-fixtures.ts';
import { ApiError } from '@/lib/api-client.ts';
import { closeOfflineDb, openOfflineDb } from './offline-db.ts';
import { batchesInScanOrder, outboxRetryDelay, queueOfflineScan, readOutbox, sessionProofOf, summarizeOutbox, uploadOutbox, type NewOutboxItem, type SendOfflineScans } from './outbox.ts';

function item(n: number, overrides: Partial<NewOutboxItem> = {}): NewOutboxItem {
  return {
    scanId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    eventId: 'event-1',
    day: 2,
    userId: 'user-1',
    code: `CODE-${n}`,
    scannedAt: new Date(Date.UTC(2026, 6, 11, 10, 0, n)).toISOString(),
    deviceId: 'device-1',
    verdict: 'approved',
    ...overrides,
  };
}

/** A server stand-in: records every batch and answers each item with `answer(scan)`. */
function recordingServer(answer: (scan: OfflineScan) => Omit<OfflineScanBatchResponse['results'][number], 'index' | 'scanId'> = () => ({ status: 'recorded' })) {
  const batches: Array<{ eventId: string; day: number; scans: OfflineScan[] }> = [];
  const send: SendOfflineScans = async (eventId, day, scans) => {
    batches.push({ eventId, day, scans });
    return { receivedAt: new Date().toISOString(), results: scans.map((scan, index) => ({ index, scanId: scan.scanId, ...answer(scan) })) };
  };
  return { send, batches };
}

/**
 * A server stand-in whose answers wait until the test lets them go (`answerAll`; later batches are
 * answered at once): every batch is recorded as it arrives, each item answered `recorded`.
 */
function heldServer() {
  const batches: OfflineScan[][] = [];
  let isHeld = true;
  const waiting: Array<() => void> = [];
  const send: SendOfflineScans = async (_eventId, _day, scans) => {
    batches.push(scans);
    if (isHeld) await new Promise<void>((resolve) => waiting.push(resolve));
    return { receivedAt: new Date().toISOString(), results: scans.map((scan, index) => ({ index, scanId: scan.scanId, status: 'recorded' as const })) };
  };
  return {
    send,
    batches,
    /** Resolves once `count` batches have arrived. */
    arrived: (count: number) => vi.waitFor(() => expect(batches.length).toBeGreaterThanOrEqual(count)),
    answerAll() {
      isHeld = false;
      for (const answer of waiting.splice(0)) answer();
    },
  };
}

describe('outbox', () => {
  test('queued scans survive closing the database (an app kill) and are sent in scan order, then leave the outbox', async () => {
    const db = await openOfflineDb();
    for (const n of [1, 2, 3]) await queueOfflineScan(db, item(n));
    await closeOfflineDb();

    const reopened = await openOfflineDb();
    expect((await readOutbox(reopened)).map((queued) => queued.code)).toEqual(['CODE-1', 'CODE-2', 'CODE-3']);
    const server = recordingServer();
    const outcome = await uploadOutbox(reopened, 'user-1', server.send);
    expect(outcome).toEqual({ sent: 3, conflicts: [], exitsRecorded: [], days: [{ eventId: 'event-1', day: 2 }], setAside: 0, failed: false, unanswered: false });
    expect(server.batches).toHaveLength(1);
    expect(server.batches[0]?.scans.map((scan) => scan.code)).toEqual(['CODE-1', 'CODE-2', 'CODE-3']);
    expect(server.batches[0]?.scans[0]).toEqual({ scanId: item(1).scanId, code: 'CODE-1', scannedAt: item(1).scannedAt, deviceId: 'device-1', verdict: 'approved' });
    expect(await readOutbox(reopened)).toEqual([]);
  });

  test('an exit is queued like an entry, sent as an exit, and adds nobody to the approvals waiting (docs/decisions/113)', async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, item(1));
    await queueOfflineScan(db, item(2, { code: 'CODE-1', direction: 'exit' }));
    expect((await summarizeOutbox(db, 'user-1')).approvalsWaiting).toEqual({ 'event-1|2': 1 });
    const server = recordingServer();
    await uploadOutbox(db, 'user-1', server.send);
    expect(server.batches[0]?.scans.map((scan) => [scan.code, scan.direction])).toEqual([
      ['CODE-1', undefined],
      ['CODE-1', 'exit'],
    ]);
  });

  test("an exit denied 'Not inside' is sent as that exit attempt; the server's recorded exit leaves the outbox and is reported, a logged denial or an approval is not (docs/decisions/150)", async () => {
    const db = await openOfflineDb();
    const exitAt = { checkInListId: 'list-bar', code: 'CODE-1', direction: 'exit' as const, verdict: 'denied' as const, reason: 'not_inside' as const };
    await queueOfflineScan(db, item(1, exitAt));
    await queueOfflineScan(db, item(2, { ...exitAt, code: 'CODE-2' }));
    await queueOfflineScan(db, item(3, { checkInListId: 'list-bar', code: 'CODE-3' }));
    // The server recorded CODE-1's exit (the guest was inside), logged CODE-2's denial; CODE-3 is an
    // approval (a flag on it is not this device's business).
    const server = recordingServer((scan) => (scan.code === 'CODE-2' ? { status: 'recorded' } : { status: 'recorded', isExitRecorded: true, checkedInAt: scan.scannedAt }));
    const outcome = await uploadOutbox(db, 'user-1', server.send);
    expect(server.batches[0]?.scans.slice(0, 2).map((scan) => [scan.code, scan.verdict, scan.reason, scan.direction])).toEqual([
      ['CODE-1', 'denied', 'not_inside', 'exit'],
      ['CODE-2', 'denied', 'not_inside', 'exit'],
    ]);
    expect(outcome).toMatchObject({ sent: 3, setAside: 0, conflicts: [], exitsRecorded: [{ scanId: item(1).scanId, eventId: 'event-1', day: 2, checkInListId: 'list-bar' }] });
    expect(await readOutbox(db)).toEqual([]);
  });

  test('a failed upload keeps every item, and the retry delay doubles from 1 s up to 30 s', async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, item(1));
    await queueOfflineScan(db, item(2, { verdict: 'denied', reason: 'not_found' }));
    const down: SendOfflineScans = async () => {
      throw new ApiError(0, 'network_error', 'Failed to fetch');
    };
    expect(await uploadOutbox(db, 'user-1', down)).toMatchObject({ failed: true, unanswered: true });
    const serverError: SendOfflineScans = async () => {
      throw new ApiError(503, 'not_ready', 'stopping');
    };
    expect(await uploadOutbox(db, 'user-1', serverError)).toMatchObject({ failed: true, unanswered: true });
    const internalError: SendOfflineScans = async () => {
      throw new ApiError(500, 'internal_error', 'Something went wrong on the server.');
    };
    // Answered: a probe's answer does not cut this one's backoff short (outbox-rounds.ts `nudge`).
    expect(await uploadOutbox(db, 'user-1', internalError)).toMatchObject({ failed: true, unanswered: false });
    const sessionEnded: SendOfflineScans = async () => {
      throw new ApiError(401, 'unauthorized', 'Sign in');
    };
    expect(await uploadOutbox(db, 'user-1', sessionEnded)).toMatchObject({ failed: true, unanswered: false });
    expect(await summarizeOutbox(db, 'user-1')).toEqual({ waiting: 2, othersWaiting: 0, setAside: [], waitingScanIds: [item(1).scanId, item(2).scanId], approvalsWaiting: { 'event-1|2': 1 } });

    expect([0, 1, 2, 3, 4, 5, 6].map(outboxRetryDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);

    const server = recordingServer();
    await uploadOutbox(db, 'user-1', server.send);
    expect(server.batches[0]?.scans[1]).toMatchObject({ verdict: 'denied', reason: 'not_found' });
    expect(await summarizeOutbox(db, 'user-1')).toEqual({ waiting: 0, othersWaiting: 0, setAside: [], waitingScanIds: [], approvalsWaiting: {} });
  });

  test("items the server rejects are set aside with its reason and not sent again; conflicts are reported", async () => {
    const db = await openOfflineDb();
    for (const n of [1, 2, 3]) await queueOfflineScan(db, item(n));
    const server = recordingServer((scan) =>
      scan.code === 'CODE-2' ? { status: 'rejected', reason: 'revoked', message: 'This ticket has been revoked.' } : scan.code === 'CODE-3' ? { status: 'conflict' } : { status: 'duplicate' },
    );
    const outcome = await uploadOutbox(db, 'user-1', server.send);
    expect(outcome).toEqual({ sent: 2, conflicts: [{ scanId: item(3).scanId, eventId: 'event-1', day: 2 }], exitsRecorded: [], days: [{ eventId: 'event-1', day: 2 }], setAside: 1, failed: false, unanswered: false });

    const summary = await summarizeOutbox(db, 'user-1');
    expect(summary.waiting).toBe(0);
    expect(summary.setAside).toHaveLength(1);
    expect(summary.setAside[0]).toMatchObject({ code: 'CODE-2', setAside: { reason: 'revoked', message: 'This ticket has been revoked.' } });
    // Set aside is not waiting: the server has answered for it.
    expect(summary.waitingScanIds).toEqual([]);

    await uploadOutbox(db, 'user-1', server.send);
    expect(server.batches).toHaveLength(1);
  });

  test('a 4xx for the whole batch sets its items aside with the server reason', async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, item(1));
    const forbidden: SendOfflineScans = async () => {
      throw new ApiError(404, 'not_found', 'No such event.');
    };
    const outcome = await uploadOutbox(db, 'user-1', forbidden);
    expect(outcome).toMatchObject({ setAside: 1, failed: false });
    expect((await summarizeOutbox(db, 'user-1')).setAside[0]?.setAside).toEqual({ reason: 'not_found', message: 'No such event.' });
  });

  test("another user's items are summed up apart, and sent under this session naming their maker (decision 077)", async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, item(1, { userId: COLLEAGUE_ID }));
    await queueOfflineScan(db, item(2));
    // A scan not yet sent is unknown to the server, whoever made it: both screens see it as waiting.
    expect(await summarizeOutbox(db, COLLEAGUE_ID)).toEqual({ waiting: 1, othersWaiting: 1, setAside: [], waitingScanIds: [item(1).scanId, item(2).scanId], approvalsWaiting: { 'event-1|2': 2 } });
    expect(await summarizeOutbox(db, 'user-1')).toMatchObject({ waiting: 1, othersWaiting: 1 });

    const server = recordingServer();
    await uploadOutbox(db, 'user-1', server.send);
    expect(server.batches.flatMap((batch) => batch.scans.map((scan) => [scan.code, scan.scannedBy]))).toEqual([
      ['CODE-1', COLLEAGUE_ID],
      ['CODE-2', undefined],
    ]);
    expect(await readOutbox(db)).toEqual([]);
  });

  test("a colleague's scan carries the proof of the session it was made in, so the server takes its maker's name (decision 088)", async () => {
    const db = await openOfflineDb();
    const made = item(1, { userId: COLLEAGUE_ID });
    const sessionProof = await sessionProofOf('colleague-session-token', made);
    expect(sessionProof).toBe(await offlineScanProof('colleague-session-token', made));
    await queueOfflineScan(db, { ...made, ...(sessionProof ? { sessionProof } : {}) });
    const server = recordingServer();
    await uploadOutbox(db, 'user-1', server.send);
    expect(server.batches[0]?.scans[0]).toMatchObject({ scannedBy: COLLEAGUE_ID, sessionProof });
    // Without a token at hand there is no proof, and nothing breaks: the uploader answers for the scan.
    expect(await sessionProofOf(null, made)).toBeUndefined();
  });

  test("a 4xx for a batch sets this user's items aside and keeps another user's for a member who may send them", async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, item(1, { userId: COLLEAGUE_ID }));
    await queueOfflineScan(db, item(2));
    const forbidden: SendOfflineScans = async () => {
      throw new ApiError(404, 'not_found', 'No such event.');
    };
    expect(await uploadOutbox(db, 'user-1', forbidden)).toMatchObject({ setAside: 1, failed: false });
    expect((await readOutbox(db)).map((queued) => [queued.code, queued.setAside?.reason])).toEqual([
      ['CODE-1', undefined],
      ['CODE-2', 'not_found'],
    ]);
  });

  test('two rounds at once send each queued scan once: the second waits for the first, then sends what is still queued', async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, item(1));
    await queueOfflineScan(db, item(2));
    const held = heldServer();
    const first = uploadOutbox(db, 'user-1', held.send);
    await held.arrived(1);
    // Another sender's round (the scanner's retry during a logout's send) starts while the first is on the wire.
    const second = uploadOutbox(db, 'user-1', held.send);
    held.answerAll();
    expect(await first).toMatchObject({ sent: 2, failed: false });
    expect(await second).toMatchObject({ sent: 0, failed: false });
    expect(held.batches.map((batch) => batch.map((scan) => scan.code))).toEqual([['CODE-1', 'CODE-2']]);
  });

  test('a round whose deadline passes while another round hangs sends nothing, and the next round still waits for the one in flight', async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, item(1));
    const held = heldServer();
    const hanging = uploadOutbox(db, 'user-1', held.send);
    await held.arrived(1);
    const deadline = new AbortController();
    const giving = uploadOutbox(db, 'user-1', held.send, { signal: deadline.signal });
    deadline.abort();
    expect(await giving).toEqual({ sent: 0, conflicts: [], exitsRecorded: [], days: [], setAside: 0, failed: true, unanswered: true });
    const next = uploadOutbox(db, 'user-1', held.send);
    await queueOfflineScan(db, item(2));
    expect(held.batches).toHaveLength(1);

    held.answerAll();
    expect(await hanging).toMatchObject({ sent: 1 });
    expect(await next).toMatchObject({ sent: 1 });
    expect(held.batches.map((batch) => batch.map((scan) => scan.code))).toEqual([['CODE-1'], ['CODE-2']]);
  });

  test('batches hold at most 500 items of one event day, in scan order', async () => {
    const items = [...Array.from({ length: 501 }, (_, n) => ({ ...item(n), seq: n + 1 })), { ...item(600, { day: 3 }), seq: 600 }, { ...item(601), seq: 601 }];
    const batches = batchesInScanOrder(items.reverse());
    expect(batches.map((batch) => batch.length)).toEqual([500, 1, 1, 1]);
    expect(batches.map((batch) => batch[0]?.day)).toEqual([2, 2, 3, 2]);
    expect(batches.flat().map((queued) => queued.seq)).toEqual([...Array.from({ length: 501 }, (_, n) => n + 1), 600, 601]);
  });
});
