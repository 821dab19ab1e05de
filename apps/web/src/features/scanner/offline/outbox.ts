/**
 * The outbox (issue 12 item 4, docs/decisions/043, 045, 052): every scan decided on the device is
 * queued in IndexedDB under its `scanId` with the scan time, this device's id, the user and the event
 * day, survives a reload or an app kill, and is sent when the server is back to POST
 * /events/{eventId}/days/{day}/offline-scans — per event day, in scan order, at most
 * `OFFLINE_BATCH_MAX_ITEMS` per request. Nothing is lost on a failure:
 *
 * - no answer or a 5xx: every item stays queued; the caller tries again later (`outboxRetryDelay`).
 * - a 401 (the session ended): the items stay queued for the next sign-in.
 * - any other 4xx for the whole batch: its items of the signed-in user are set aside with the
 *   server's reason; another user's stay queued (this user may not reach that event: a member of
 *   its organization will send them).
 * - per item: `recorded` and `duplicate` leave the outbox; `conflict` leaves it and is reported (the
 *   scan shows 'Conflict' in 'Recent scans'); `rejected` is set aside with the server's reason,
 *   visible to the user, and never sent again. An exit this device denied 'Not inside' that the
 *   server recorded (`isExitRecorded`, docs/decisions/150) leaves it and is reported too (the scan
 *   shows 'Exit recorded' in 'Recent scans').
 *
 * On the phone every record also has a copy in the app's own files, which the OS never clears, and
 * the outbox is put back from it if the WebView's storage was (durable-copy.ts, docs/decisions/095).
 *
 * Every waiting item is sent, whoever made it (docs/decisions/077): a scan a colleague made on this
 * device before signing out goes under the signed-in user's session, naming its maker
 * (`scannedBy`), so a gate phone handed over at a shift change keeps no check-in from the server.
 * Each item carries the proof of the session it was made in (`sessionProof`, decision 088): the
 * server takes the maker's name, and the scan time, only with it.
 */
import { normalizeTicketCode } from '@gatecheck/contract/door-list';
import { OFFLINE_BATCH_MAX_ITEMS, offlineScanProof, OfflineRejection, OfflineVerdict, type OfflineScan, type OfflineScanBatchResponse } from '@gatecheck/contract/offline-scans';
import { DenialReason } from '@gatecheck/contract/tickets';
import { z } from 'zod';
import { RETRY_BASE_DELAY_MS, RETRY_DELAY_CAP_MS } from '@/config/constants.ts';
import { ApiError } from '@/lib/api-client.ts';
import { copyOutboxRecord, dropOutboxCopy, pruneOutboxCopies } from './durable-copy.ts';
import { eventDayKey, openOfflineDb, type OfflineDb } from './offline-db.ts';

const OutboxItemSchema = z.object({
  scanId: z.string(),
  seq: z.number(),
  eventId: z.string(),
  day: z.number().int(),
  /** The check-in list the scan was made at (docs/decisions/109); absent: the event's first. */
  checkInListId: z.string().optional(),
  userId: z.string(),
  code: z.string(),
  scannedAt: z.string(),
  deviceId: z.string(),
  verdict: OfflineVerdict,
  reason: DenialReason.optional(),
  /** 'exit': an exit recorded on the device (docs/decisions/113), sent as the scan's direction; absent: an entry. */
  direction: z.enum(['entry', 'exit']).optional(),
  /**
   * `offlineScanProof` under the session the scan was made in (decision 088): proves its maker and
   * session to the server. Absent when the session token was not at hand (the uploader then answers for it).
   */
  sessionProof: z.string().optional(),
  /** Set when the server would not take it: its reason and words. */
  setAside: z.object({ reason: z.string(), message: z.string() }).optional(),
});
/**
 * One queued scan: the upload's `OfflineScan` fields plus the event day, the user who made it and
 * `seq` (this device's counter, scan order).
 */
export type OutboxItem = z.infer<typeof OutboxItemSchema>;

/** What `queueOfflineScan` needs: the scan as decided, for an event day, by a user. */
export type NewOutboxItem = Omit<OutboxItem, 'seq' | 'setAside'>;

/**
 * The `sessionProof` of a scan made now under the session of bearer `token` (decision 088), or
 * undefined without a token or without WebCrypto (the scan is then the uploader's to answer for).
 * Never throws.
 */
export async function sessionProofOf(token: string | null, scan: Pick<OutboxItem, 'scanId' | 'scannedAt' | 'deviceId' | 'code'>): Promise<string | undefined> {
  if (!token) return undefined;
  try {
    return await offlineScanProof(token, scan);
  } catch {
    return undefined;
  }
}

/**
 * Queues `item` (scan order = the order of the calls). Queuing the same `scanId` again replaces it.
 * @throws the browser's error when IndexedDB cannot write (the caller shows the scan is not kept).
 */
export async function queueOfflineScan(db: OfflineDb, item: NewOutboxItem): Promise<void> {
  const tx = db.transaction(['outbox', 'meta'], 'readwrite');
  const last = await tx.objectStore('meta').get('outboxSeq');
  const seq = (typeof last === 'number' ? last : 0) + 1;
  await tx.objectStore('meta').put(seq, 'outboxSeq');
  await tx.objectStore('outbox').put({ ...item, seq });
  await tx.done;
  // On the phone, also in the app's files, which the OS never clears (durable-copy.ts).
  void copyOutboxRecord({ ...item, seq });
}

/** Every item of the outbox, in scan order; damaged records are left out. */
export async function readOutbox(db: OfflineDb): Promise<OutboxItem[]> {
  const records = await db.getAllFromIndex('outbox', 'bySeq');
  return records.flatMap((record) => {
    const parsed = OutboxItemSchema.safeParse(record);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The outbox as the scanner shows it: how many wait to be sent, and the items set aside. */
export interface OutboxSummary {
  waiting: number;
  /**
   * How many scans of other users wait on this device (docs/decisions/076, 077): sent under this
   * user's session naming their maker, or kept for a member of their organization.
   */
  othersWaiting: number;
  setAside: OutboxItem[];
  /** The scan ids of every item still waiting to be sent (any user's): the server does not know these scans yet. */
  waitingScanIds: string[];
  /**
   * Approvals waiting to be sent (any user's), per event day (`eventDayKey`): check-ins the server's
   * count does not have yet, so the scanner's 'Checked in N / M' adds them.
   */
  approvalsWaiting: Record<string, number>;
}

/**
 * The items of `userId` waiting, those of other users waiting, those set aside (of every user, so
 * none is hidden), and the scan ids and per-day approvals of all waiting items.
 */
export async function summarizeOutbox(db: OfflineDb, userId: string): Promise<OutboxSummary> {
  const items = await readOutbox(db);
  const waiting = items.filter((item) => !item.setAside);
  return {
    waiting: waiting.filter((item) => item.userId === userId).length,
    othersWaiting: waiting.filter((item) => item.userId !== userId).length,
    setAside: items.filter((item) => item.setAside),
    waitingScanIds: waiting.map((item) => item.scanId),
    // Admissions only: an exit adds nobody to 'Checked in'.
    approvalsWaiting: countBy(waiting.filter((item) => item.verdict === 'approved' && item.direction !== 'exit').map((item) => eventDayKey(item.eventId, item.day, item.checkInListId))),
  };
}

/**
 * Sends one batch: POST offline-scans for `eventId`'s day `day` with `scans` in order.
 * @throws {ApiError} on no answer, an error answer or an unexpected body.
 */
export type SendOfflineScans = (eventId: string, day: number, scans: OfflineScan[], checkInListId?: string) => Promise<OfflineScanBatchResponse>;

/** A scan the server answered for in a way the device shows (a `conflict`, an exit recorded), with its event day. */
export interface UploadConflict {
  scanId: string;
  eventId: string;
  day: number;
  /** The check-in list it was made at; absent: the event's first. */
  checkInListId?: string | undefined;
}

/** Answers of a proxy or load balancer for a server that did not answer. */
const GATEWAY_FAILURES = new Set([502, 503, 504]);

/** What one upload round did. `conflicts`: the scans the server answered `conflict` for. */
export interface UploadOutcome {
  sent: number;
  conflicts: UploadConflict[];
  /**
   * Exits this device denied 'Not inside' that the server recorded (`isExitRecorded`,
   * docs/decisions/150): the guest was inside by a gate or a time this device did not know of.
   */
  exitsRecorded: UploadConflict[];
  /** The event days and check-in lists of which the server recorded at least one scan (their data changed), once each. */
  days: { eventId: string; day: number; checkInListId?: string | undefined }[];
  setAside: number;
  /** The round stopped on a failure that leaves items queued (no answer, 5xx, 401). */
  failed: boolean;
  /** That failure was for want of an answer: no connection, or a gateway's 502–504. */
  unanswered: boolean;
}

/**
 * The last upload round started or waiting on each open outbox (a connection of `openOfflineDb`, one
 * per page): it settles when that round has, after every round before it. Four callers send the
 * outbox (the scanner's sender, the other screens' sender, the logout, a removed door device); two
 * rounds at once would both read the items still unanswered and send them twice: the server keeps
 * one row per scan id, but a bad door network carries the batches twice and the outcomes (conflicts,
 * refreshed counts) are applied twice.
 */
const lastRounds = new WeakMap<OfflineDb, Promise<void>>();

/**
 * Sends every queued item with `send`, which must be bound to the session of `userId` (offline-api.ts
 * `roundSender`; another user's items name their maker), event day by event day, in scan order, in
 * batches of at most `OFFLINE_BATCH_MAX_ITEMS`, and applies each item's answer (see the module
 * comment). Stops at the first batch that fails without an answer the items can keep; every item not
 * answered stays queued.
 *
 * One round at a time per outbox: a call while another round is under way waits for it (and for
 * those already waiting), then sends what is still queued. `options.signal` (the deadline that
 * `send` is bound to) also ends the wait: aborted before its turn, the round sends nothing and
 * reports `failed` and `unanswered` (the round in flight may hang on a black-holed network: a
 * logout must still answer by its deadline).
 * Never throws for a failed request (`failed: true`); throws only when IndexedDB fails.
 */
export async function uploadOutbox(db: OfflineDb, userId: string, send: SendOfflineScans, options: { signal?: AbortSignal | undefined } = {}): Promise<UploadOutcome> {
  const before = lastRounds.get(db) ?? Promise.resolve();
  let settle = () => {};
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  // A round that gives up waiting settles its own part only: the next still waits for the one in flight.
  const last = before.then(() => settled);
  lastRounds.set(db, last);
  try {
    if (!(await isTurnBefore(before, options.signal))) return { sent: 0, conflicts: [], exitsRecorded: [], days: [], setAside: 0, failed: true, unanswered: true };
    return await uploadRound(db, userId, send);
  } finally {
    settle();
    void last.then(() => {
      if (lastRounds.get(db) === last) lastRounds.delete(db);
    });
  }
}

/** Resolves true once `before` has settled, false if `signal` aborts first (or has already). */
function isTurnBefore(before: Promise<void>, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  if (!signal) return before.then(() => true);
  return new Promise((resolve) => {
    const giveUp = () => resolve(false);
    signal.addEventListener('abort', giveUp, { once: true });
    void before.then(() => {
      signal.removeEventListener('abort', giveUp);
      resolve(!signal.aborted);
    });
  });
}

/** One upload round of `uploadOutbox`, once no other round is under way. */
async function uploadRound(db: OfflineDb, userId: string, send: SendOfflineScans): Promise<UploadOutcome> {
  const outcome: UploadOutcome = { sent: 0, conflicts: [], exitsRecorded: [], days: [], setAside: 0, failed: false, unanswered: false };
  const queued = (await readOutbox(db)).filter((item) => !item.setAside);
  for (const batch of batchesInScanOrder(queued)) {
    const first = batch[0];
    if (!first) continue;
    let answer: OfflineScanBatchResponse;
    try {
      answer = await send(first.eventId, first.day, batch.map((item) => toOfflineScan(item, userId)), first.checkInListId);
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
        // This user's own scans are answered; another's wait for a member who may send them.
        const own = batch.filter((item) => item.userId === userId);
        for (const item of own) await putOutboxRecord(db, { ...item, setAside: { reason: error.code, message: error.message } });
        outcome.setAside += own.length;
        continue;
      }
      outcome.failed = true;
      outcome.unanswered = !(error instanceof ApiError) || error.status === 0 || GATEWAY_FAILURES.has(error.status);
      return outcome;
    }
    const byScanId = new Map(batch.map((item) => [item.scanId, item]));
    for (const result of answer.results) {
      const item = result.scanId === null ? batch[result.index] : byScanId.get(result.scanId);
      if (!item) continue;
      if (result.status === 'rejected') {
        const reason = OfflineRejection.safeParse(result.reason);
        await putOutboxRecord(db, { ...item, setAside: { reason: reason.success ? reason.data : 'rejected', message: result.message ?? '' } });
        outcome.setAside += 1;
        continue;
      }
      const scope = { scanId: item.scanId, eventId: item.eventId, day: item.day, checkInListId: item.checkInListId };
      if (result.status === 'conflict') outcome.conflicts.push(scope);
      // Only for a scan this device denied: an older server, or another answer, changes nothing shown.
      if (result.isExitRecorded === true && item.verdict === 'denied' && item.direction === 'exit') outcome.exitsRecorded.push(scope);
      await deleteOutboxRecord(db, item.scanId);
      outcome.sent += 1;
      if (!outcome.days.some((sent) => sent.eventId === item.eventId && sent.day === item.day && sent.checkInListId === item.checkInListId)) {
        outcome.days.push({ eventId: item.eventId, day: item.day, checkInListId: item.checkInListId });
      }
    }
  }
  if (outcome.sent > 0) void pruneOutboxCopies(db);
  return outcome;
}

/** Writes an outbox record, and on the phone its copy in the app's files. */
async function putOutboxRecord(db: OfflineDb, item: OutboxItem): Promise<void> {
  await db.put('outbox', item);
  void copyOutboxRecord(item);
}

/** Deletes an outbox record, and on the phone its copy in the app's files. */
async function deleteOutboxRecord(db: OfflineDb, scanId: string): Promise<void> {
  await db.delete('outbox', scanId);
  void dropOutboxCopy(scanId);
}

/**
 * Whether this device admitted ticket `code` on `eventId`'s day `day` in a scan not yet sent (any
 * user's; codes compared as the door list compares them). The server does not know that admission,
 * so an online verify would approve the ticket a second time; and no supervisor can have undone it.
 *
 * `includesListLess`: a queued scan naming no check-in list counts at `checkInListId` too — true
 * where the server records such a scan at that list (a door device's own list, else the event's
 * first; `isListLessHere`), as it does for the scans a door device queued before its list was kept
 * with its chosen day (docs/decisions/129): they are admissions at this list all the same.
 */
export async function hasUnsentAdmission(db: OfflineDb, scope: { eventId: string; day: number; code: string; checkInListId?: string | undefined; includesListLess?: boolean | undefined }): Promise<boolean> {
  const code = normalizeTicketCode(scope.code);
  // At another check-in list, an admission here is no reason to deny (once per list and day, decision 100).
  return (await readOutbox(db)).some(
    (item) =>
      !item.setAside &&
      item.verdict === 'approved' &&
      item.eventId === scope.eventId &&
      item.day === scope.day &&
      (item.checkInListId === scope.checkInListId || (scope.includesListLess === true && item.checkInListId === undefined)) &&
      normalizeTicketCode(item.code) === code,
  );
}

/**
 * `hasUnsentAdmission` as a function of the code, for the scanner's offline side and the /supervisor
 * screen's Find attendee (decision 078): opens this device's outbox on each call. `includesListLess`
 * as for `hasUnsentAdmission`.
 * @returns `(code) => Promise<boolean>`; false when IndexedDB cannot be opened or read (then this
 *   device holds no outbox to ask, and the server decides).
 */
export function unsentAdmissionCheck(eventId: string, day: number, list?: { checkInListId?: string | undefined; includesListLess?: boolean | undefined }): (code: string) => Promise<boolean> {
  return async (code) => {
    const db = await openOfflineDb().catch(() => null);
    return db ? hasUnsentAdmission(db, { eventId, day, code, ...list }).catch(() => false) : false;
  };
}

/**
 * Whether a scan naming no check-in list counts at `checkInListId` for this user: the server records
 * a call naming no list at a door device's own list, and otherwise at the event's first list
 * (`listLessListId`, the caller's to know). False when no list is named (then list-less is the
 * scope's own key anyway) or the list-less list is unknown.
 */
export function isListLessHere(checkInListId: string | undefined, listLessListId: string | undefined): boolean {
  return checkInListId !== undefined && listLessListId === checkInListId;
}

/** Removes a set-aside item once the user has read it (the server's reason was shown). */
export async function dismissSetAside(db: OfflineDb, scanId: string): Promise<void> {
  await deleteOutboxRecord(db, scanId);
}

/**
 * Delay before upload attempt `attempt` (0-based) after failures, in ms: 1 s doubling, capped at
 * 30 s — the SPEC §9 backoff of the app's queries.
 */
export function outboxRetryDelay(attempt: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** Math.max(0, attempt), RETRY_DELAY_CAP_MS);
}

/** `items` (in scan order) cut into runs of one event day and check-in list (a batch names one list), each at most OFFLINE_BATCH_MAX_ITEMS long. */
export function batchesInScanOrder(items: readonly OutboxItem[]): OutboxItem[][] {
  const batches: OutboxItem[][] = [];
  for (const item of [...items].sort((a, b) => a.seq - b.seq)) {
    const last = batches.at(-1);
    const head = last?.[0];
    if (last && head && head.eventId === item.eventId && head.day === item.day && head.checkInListId === item.checkInListId && last.length < OFFLINE_BATCH_MAX_ITEMS) last.push(item);
    else batches.push([item]);
  }
  return batches;
}

/** The upload item of `item`, sent under the session of `senderId`: a scan another user made names its maker (`scannedBy`). */
function toOfflineScan(item: OutboxItem, senderId: string): OfflineScan {
  return {
    scanId: item.scanId,
    code: item.code,
    scannedAt: item.scannedAt,
    deviceId: item.deviceId,
    verdict: item.verdict,
    ...(item.reason ? { reason: item.reason } : {}),
    ...(item.direction === 'exit' ? { direction: 'exit' as const } : {}),
    ...(item.userId === senderId ? {} : { scannedBy: item.userId }),
    ...(item.sessionProof ? { sessionProof: item.sessionProof } : {}),
  };
}

/** How often each key occurs in `keys`. */
function countBy(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}
