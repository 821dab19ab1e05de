/**
 * The outbox upload (issue 12 items 4–5, docs/decisions/045): scans a device decided offline,
 * recorded exactly once each. Items are handled one by one in the order sent (scan order), each in
 * its own transaction, so a bad item never undoes the others.
 *
 * Per item, an offline approval goes through the same rule and the same write as verify
 * (check-ins/record.ts `recordAttempt`, with the device's scan time as the rule's `now`, so the
 * event-day check is the one at the gate); the check-in keeps the device's scan time as
 * `checked_in_at` and the server's `received_at`. An admission the server
 * already had (another gate) is a conflict: stored in offline_scans with the check-in it collides
 * with, and logged, so both admissions are in the scan log. An offline denial is logged only —
 * except an exit the device denied 'Not inside' (decision 150): the device knew only its door list
 * and its own scans, so that exit goes through the same rule and write with the server's knowledge;
 * when the guest was inside at its scan time the exit is recorded (answered `recorded` with
 * `isExitRecorded` and the exit's time), otherwise it stays a logged denial.
 *
 * Who answers for a scan, and when it can have been made (decision 088, refining 077): the maker a
 * scan names (`scannedBy`, else the uploader) only when its `sessionProof` proves it was made in a
 * session of that maker (`offlineScanProof`, keyed by the session's token hash) whose lifetime covers
 * the scan time; otherwise the uploader. A scan time before the proving (or uploading) session began
 * (less OFFLINE_SCAN_MAX_CLOCK_AHEAD_MS of clock skew) is set to that session's start: an approved
 * admission is never dropped for its time (a slow phone clock, a session revoked while the phone was
 * offline, an item queued without a proof), but it is judged by the rule — the day rule too — at the
 * session start, so a scan cannot be backdated into a day the device was not signed in; its scan-log
 * row says `scanned_before_session`, and offline_scans keeps the time the device claimed. A scan time
 * after the receipt plus the skew is rejected `scanned_in_future`. The check-in and the scan log
 * name the accountable staff member; offline_scans keeps who sent it (`sent_by_user_id`) beside. A
 * proven maker who is not a member (any more) is rejected (`unknown_staff`) and makes no check-in,
 * but is still stored and logged under its sender, with that reason, so the admission at the gate
 * leaves a trace for a supervisor.
 *
 * Idempotent on `scanId`: every answered item is stored in offline_scans (primary key scan_id) and a
 * re-sent item answers what it answered first. Two uploads of the same item at once: the second
 * INSERT into offline_scans waits for the first and conflicts, its transaction is rolled back (its
 * check-in attempt too) and it answers the stored row. The refusals of a revoked or moved door
 * device's scan (`device_revoked`, `device_moved`: decisions 108, 129, 139) are asked after the
 * stored answer — a scan recorded before the revocation or before the device was told of its move
 * answers 'recorded' again when re-sent after it, not that it was not recorded — and are stored as
 * well (decision 139), by the same INSERT that waits for a concurrent upload of the scan: an original
 * still recording it and a re-send judged after the device was told answer alike.
 */
import {
  atCapacityMessage,
  type CheckInDirection,
  decideCheckIn,
  isStorableText,
  OFFLINE_SCAN_MAX_CLOCK_AHEAD_MS,
  offlineScanProofWithKey,
  type OfflineConflict,
  type OfflineRejection,
  OfflineScan,
  type OfflineScanBatchResponse,
  type OfflineScanResult,
  type OfflineScanStatus,
  renderTextSafely,
} from '@gatecheck/contract';
import { timingSafeEqual } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../db/client.ts';
import { checkInLists, checkIns, events, offlineScans, scanLog, sessions, tickets, ticketTypes, users } from '../db/schema.ts';
import { inTransaction, retrying } from '../db/transactions.ts';
import { type ChosenCheckInList, type DeletedCheckInList, resolveUploadList, successorList } from './check-in-lists.ts';
import { deletedListRefusal, ServiceError } from './errors.ts';
import { recordAttempt } from './check-ins/record.ts';
import { findMovementOfScan, insideNowSql, ticketForRule } from './check-ins/write.ts';
import { ticketTypeDoorColumns, ticketTypeDoorOf, typeOfTicket } from './ticket-type-door.ts';
import type { EventDetails } from './events.ts';
import { isDevicePrincipalAtEvent, type StayAtList } from './devices.ts';
import { isMember } from './organizations.ts';
import { codeOfScannedText } from './signing-keys.ts';
import { ticketCodeMatches } from './ticket-codes.ts';

/**
 * The signed-in staff member uploading, and the session they upload in. `acceptsScansBefore`: a
 * revoked door device's revocation time; its scans made at or after it are rejected `device_revoked`
 * (docs/decisions/108).
 */
export interface Uploader {
  userId: string;
  sessionId: string;
  acceptsScansBefore?: Date | undefined;
  /**
   * A door device uploading to a check-in list it has since been moved away from (docs/decisions/129):
   * its stays at that list, each until it was told of the move (null: not yet). A scan made outside
   * them is rejected `device_moved`.
   */
  acceptsScansWhileAt?: readonly StayAtList[] | undefined;
  /** Those stays are at an event the device was moved away from, not only a list (docs/decisions/139): its words say so. */
  hasLeftEvent?: boolean | undefined;
}

/** What is stored and answered for one item (its `index` is added per batch). */
type ItemAnswer = Omit<OfflineScanResult, 'index'>;

/** Thrown inside an item's transaction when another upload stored the same scanId first. */
class AlreadyStored extends Error {}

/**
 * Records `scans` (raw items, in scan order) for `event` day `place.day` at check-in list
 * `place.checkInList` (docs/decisions/100) by `uploader` — or, when `place.deleted` names the list
 * the scans were made at and its organizer deleted since, each at the first of the event's lists
 * admitting its ticket (docs/decisions/153); `now` is the server clock (the receive time). The caller has checked membership (requireRole), the list and the batch size (contract
 * `OfflineScanBatch`).
 * @returns one result per item, same order (see contract offline-scans.ts for the statuses).
 */
export async function recordOfflineScans(
  db: Db,
  uploader: Uploader,
  event: EventDetails,
  place: { day: number; checkInList: ChosenCheckInList; deleted?: DeletedCheckInList | undefined },
  scans: readonly unknown[],
  now: Date,
): Promise<OfflineScanBatchResponse> {
  const { day, checkInList, deleted } = place;
  const results: OfflineScanResult[] = [];
  const [uploading] = await db.select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, uploader.sessionId));
  if (!uploading) throw new Error('the uploading session is gone');
  // Whether each maker a scan names is a member: asked once per maker per batch, not per scan.
  const makers = new Map<string, Promise<boolean>>([[uploader.userId, Promise.resolve(true)]]);
  const isKnownMaker = (userId: string): Promise<boolean> => {
    let known = makers.get(userId);
    // A member, or a door device (or one of its shifts) that scans this event (docs/decisions/107).
    if (!known) makers.set(userId, (known = isMember(db, userId, event.organizationId).then((member) => member || isDevicePrincipalAtEvent(db, userId, event.id))));
    return known;
  };
  // Each maker's sessions, for the proofs (decision 088): read once per maker per batch.
  const makerSessions = new Map<string, Promise<MakerSession[]>>();
  const sessionsOfMaker = (userId: string): Promise<MakerSession[]> => {
    let found = makerSessions.get(userId);
    if (!found) makerSessions.set(userId, (found = sessionsOf(db, userId)));
    return found;
  };
  for (const [index, raw] of scans.entries()) {
    const parsed = OfflineScan.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      results.push({
        index,
        scanId: scanIdOf(raw),
        status: 'rejected',
        reason: 'invalid_item',
        message: issue ? `${issue.path.join('.') || 'item'}: ${issue.message}` : 'invalid item',
      });
      continue;
    }
    const claimedMaker = parsed.data.scannedBy ?? uploader.userId;
    const proven = parsed.data.sessionProof === undefined ? null : await provingSession(await sessionsOfMaker(claimedMaker), parsed.data);
    const maker: Maker = proven
      ? { claimedMaker, isKnown: await isKnownMaker(claimedMaker), sessionStartedAt: proven.createdAt }
      : { claimedMaker: uploader.userId, isKnown: true, sessionStartedAt: uploading.createdAt };
    results.push({ index, ...(await recordOne(db, uploader, maker, { event, day, checkInList, deleted }, parsed.data, now)) });
  }
  return { receivedAt: now.toISOString(), results };
}

/**
 * The rejection of a scan by a door device made after it was revoked (`device_revoked`, decision 108)
 * or outside its stays at a list it has left (`device_moved`, decision 129); null when neither.
 * Asked only of a scan not stored yet: one recorded before answers its stored result (exactly once).
 */
function deviceRefusal(uploader: Uploader, scan: OfflineScan): ItemAnswer | null {
  if (uploader.acceptsScansBefore && Date.parse(scan.scannedAt) >= uploader.acceptsScansBefore.getTime()) {
    return reject(scan.scanId, 'device_revoked', 'Scanned after this device was removed by its organizer.');
  }
  return uploader.acceptsScansWhileAt ? movedAwayAnswer(uploader.acceptsScansWhileAt, scan, uploader.hasLeftEvent === true) : null;
}

/**
 * The rejection of a scan sent by a door device to a list it has left (docs/decisions/129), or to an
 * event it has left (`hasLeftEvent`, docs/decisions/139), when the scan time is in none of `stays`
 * (from its arrival there until it was told of the move, open while not told: the phone scans there
 * until it learns), else null. As for a revoked device, the scan time the device claims decides,
 * unclamped.
 */
function movedAwayAnswer(stays: readonly StayAtList[], scan: OfflineScan, hasLeftEvent: boolean): ItemAnswer | null {
  const scannedAt = Date.parse(scan.scannedAt);
  if (stays.some(({ from, until }) => from.getTime() <= scannedAt && (until === null || scannedAt < until.getTime()))) return null;
  const arrived = Math.min(...stays.map(({ from }) => from.getTime()));
  const afterTold = hasLeftEvent
    ? 'Scanned at this event after this device was told of its move to another event; the scan was not recorded.'
    : 'Scanned at this check-in list after this device was told of its move to another list; the scan was not recorded.';
  const message = scannedAt >= arrived ? afterTold : 'This device was not at this check-in list when it made this scan; the scan was not recorded.';
  return reject(scan.scanId, 'device_moved', message);
}

/**
 * Who answers for a scan: the maker its proof names, or the uploader (decision 088); whether that
 * is a member of the organization; and when the session the scan was made in began.
 */
interface Maker {
  claimedMaker: string;
  isKnown: boolean;
  sessionStartedAt: Date;
}

/** A session a scan may have been made in: what proves it (its token hash) and its lifetime. */
interface MakerSession {
  tokenHash: string;
  createdAt: Date;
  endsAt: Date;
}

/** Every session of `userId` (a user has one per sign-in; read once per maker per batch). */
async function sessionsOf(db: DbOrTx, userId: string): Promise<MakerSession[]> {
  return db
    .select({ tokenHash: sessions.tokenHash, createdAt: sessions.createdAt, endsAt: sql<Date>`coalesce(${sessions.revokedAt}, ${sessions.expiresAt})`.mapWith(sessions.expiresAt) })
    .from(sessions)
    .where(eq(sessions.userId, userId));
}

/**
 * The session among `candidates` (the maker's) that `scan.sessionProof` proves the scan was made in:
 * one whose lifetime (from its start to its revocation or expiry, with the clock skew either side)
 * covers the scan time and whose token hash gives the same proof. Null when none does.
 */
async function provingSession(candidates: readonly MakerSession[], scan: OfflineScan): Promise<MakerSession | null> {
  const scannedAt = new Date(scan.scannedAt).getTime();
  const given = Buffer.from(scan.sessionProof ?? '', 'base64url');
  for (const candidate of candidates) {
    const isInLifetime = candidate.createdAt.getTime() - OFFLINE_SCAN_MAX_CLOCK_AHEAD_MS <= scannedAt && scannedAt <= candidate.endsAt.getTime() + OFFLINE_SCAN_MAX_CLOCK_AHEAD_MS;
    if (!isInLifetime) continue;
    const expected = Buffer.from(await offlineScanProofWithKey(candidate.tokenHash, scan), 'base64url');
    if (expected.length === given.length && timingSafeEqual(expected, given)) return candidate;
  }
  return null;
}

/**
 * Where a batch's scans were made: the event, the day and the check-in list. `deleted`: the batch
 * names a list its organizer deleted since (docs/decisions/153); each scan is then recorded at
 * `successorList` of `checkInList.lists` for its ticket (judged by the deleted list's ticket types
 * and days), not at `checkInList.list`.
 */
interface ScanPlace {
  event: EventDetails;
  day: number;
  checkInList: ChosenCheckInList;
  deleted?: DeletedCheckInList | undefined;
}

/**
 * `place` for a scan of `item.found` (undefined: no ticket of the event) in direction
 * `item.direction`, read in the item's transaction `tx` at `item.now`: when the batch names a
 * deleted list, the list `successorList` chooses for that ticket — the one where it already has its
 * check-in that day if any (for an exit, one its guest is inside at first) — else `place` itself.
 */
async function placeOfScan(tx: DbOrTx, place: ScanPlace, item: { found: ScannedTicket['found']; direction: CheckInDirection | undefined; now: Date }): Promise<ScanPlace> {
  if (!place.deleted) return place;
  const { found, direction, now } = item;
  const ticket = found && found.ticket.eventId === place.event.id ? found.ticket : undefined;
  const checkedInListId = ticket ? await listCheckedInAt(tx, { eventId: place.event.id, ticketId: ticket.id, day: place.day, isExit: direction === 'exit', now }) : undefined;
  const list = successorList(place.checkInList.lists, place.deleted, { ticketType: ticket?.ticketType, day: place.day, checkedInListId });
  return { ...place, checkInList: { ...place.checkInList, list } };
}

/**
 * The id of the list where ticket `key.ticketId` of event `key.eventId` has its check-in (not undone)
 * on `key.day`: the first in list order, for an exit (`key.isExit`) first one its guest is inside at
 * `key.now` (`insideNowSql`); undefined when it has none.
 */
async function listCheckedInAt(tx: DbOrTx, key: { eventId: string; ticketId: string; day: number; isExit: boolean; now: Date }): Promise<string | undefined> {
  const [row] = await tx
    .select({ checkInListId: checkIns.checkInListId })
    .from(checkIns)
    .innerJoin(checkInLists, and(eq(checkInLists.eventId, checkIns.eventId), eq(checkInLists.id, checkIns.checkInListId)))
    .innerJoin(events, eq(events.id, checkIns.eventId))
    .where(and(eq(checkIns.eventId, key.eventId), eq(checkIns.ticketId, key.ticketId), eq(checkIns.day, key.day), isNull(checkIns.undoneAt)))
    .orderBy(...(key.isExit ? [sql`${insideNowSql(key.now)} desc nulls last`] : []), asc(checkInLists.position))
    .limit(1);
  return row?.checkInListId;
}

async function recordOne(db: Db, uploader: Uploader, maker: Maker, place: ScanPlace, scan: OfflineScan, now: Date): Promise<ItemAnswer> {
  const { event, day } = place;
  // Who the scan is stored under: its maker, or its sender when the maker is not a member.
  const makerId = maker.isKnown ? maker.claimedMaker : uploader.userId;
  // A scan recorded before answers what it answered then, even when the device was revoked or told
  // of a move since (a re-sent upload whose answer was lost): it was recorded, and stays so. One
  // being recorded by a concurrent upload is waited for by the refusal's INSERT (`keepRefusal`).
  const stored = await findStored(db, scan.scanId);
  if (stored) return replay(stored, makerId, event, day);
  const upload: ItemUpload = { uploader, makerId, maker, event, day, receivedAt: now };
  const refused = deviceRefusal(uploader, scan);
  if (refused) return keepRefusal(db, upload, scan, refused);
  try {
    return await inTransaction(db, async (tx) => {
      const claimedAt = new Date(scan.scannedAt);
      // No scan before its session began (decision 088): such a time is taken as the session's start.
      const isBeforeSession = claimedAt.getTime() < maker.sessionStartedAt.getTime() - OFFLINE_SCAN_MAX_CLOCK_AHEAD_MS;
      const at = isBeforeSession ? maker.sessionStartedAt : claimedAt;
      const scanned = maker.isKnown ? await findScannedTicket(tx, scan) : null;
      const itemPlace = await placeOfScan(tx, place, { found: scanned?.found, direction: scan.direction, now });
      const outcome = scanned ? await decideItem(tx, makerId, itemPlace, scan, scanned, { at, isClamped: isBeforeSession }, now) : unknownMaker(scan);
      const [inserted] = await tx
        .insert(offlineScans)
        .values(offlineScanRow(upload, scan, outcome))
        .onConflictDoNothing({ target: [offlineScans.eventId, offlineScans.scanId] })
        .returning({ scanId: offlineScans.scanId });
      if (!inserted) throw new AlreadyStored();
      if (outcome.log) {
        await tx.insert(scanLog).values({
          userId: makerId,
          eventId: event.id,
          day,
          code: renderTextSafely(outcome.code),
          verdict: outcome.log.verdict,
          reason: outcome.log.reason,
          scanId: scan.scanId,
          source: 'offline',
          scannedAt: at,
          checkInListId: itemPlace.checkInList.list.id,
        });
      }
      return withExitRecorded(outcome.answer, scan.verdict);
    });
  } catch (error) {
    if (!(error instanceof AlreadyStored)) {
      // The list was deleted after the batch read it (its check found none of the phone's scans): the
      // item, which wrote nothing, goes where a batch naming the deleted list goes (docs/decisions/153).
      const afterDelete = isListGone(error) && !place.deleted ? await placeAfterDelete(db, place) : undefined;
      if (!afterDelete) throw error;
      return recordOne(db, uploader, maker, afterDelete, scan, now);
    }
    const winner = await findStored(db, scan.scanId);
    if (!winner) throw new Error('offline scan vanished after a conflicting insert');
    return replay(winner, makerId, event, day);
  }
}

/** Whether `error` is a check-in's refusal because its list was deleted under it (docs/decisions/151): the door transaction's hold, or the foreign key. */
function isListGone(error: unknown): boolean {
  return deletedListRefusal(error) !== undefined || (error instanceof ServiceError && error.field === 'checkInListId');
}

/** `place` read again when its list was deleted since the batch read it: the event's lists now and the deleted list, or undefined when the list is there still or the event never had it. */
async function placeAfterDelete(db: Db, place: ScanPlace): Promise<ScanPlace | undefined> {
  const { deleted, ...checkInList } = await resolveUploadList(db, place.event.id, place.checkInList.list.id);
  return deleted ? { ...place, checkInList, deleted } : undefined;
}

/**
 * Stores the refusal of a revoked or moved door device's scan (`refused`, decisions 108, 129, 139)
 * as its answer, as any other rejection is stored, and answers it — unless the same scan was stored
 * first by another upload of it: then that one's answer. The INSERT … ON CONFLICT waits for a
 * concurrent upload of the scan that inserted it and has not committed, so an original and its
 * re-send running side by side give one answer: each judges the scan by the device's stays and
 * revocation as it read them, and the one stored first is the scan's answer for good. Without the
 * row, a re-send read after the device was told of its move (or revoked) answered 'not recorded'
 * while the original, read before, was recording the same scan.
 */
async function keepRefusal(db: Db, upload: ItemUpload, scan: OfflineScan, refused: ItemAnswer): Promise<ItemAnswer> {
  const { makerId, event, day } = upload;
  const inserted = await retrying(() =>
    db
      .insert(offlineScans)
      .values(offlineScanRow(upload, scan, { answer: refused, code: scan.code, ticketId: null, conflictingCheckInId: null }))
      .onConflictDoNothing({ target: [offlineScans.eventId, offlineScans.scanId] })
      .returning({ scanId: offlineScans.scanId }),
  );
  if (inserted.length > 0) return refused;
  const winner = await findStored(db, scan.scanId);
  if (!winner) throw new Error('offline scan vanished after a conflicting insert');
  return replay(winner, makerId, event, day);
}

/** One item's upload: who sent it, who it is stored under (`makerId`), where, and when the server received it. */
interface ItemUpload {
  uploader: Uploader;
  makerId: string;
  maker: Maker;
  event: EventDetails;
  day: number;
  receivedAt: Date;
}

/**
 * The offline_scans row that stores `kept.answer` as the answer to `scan` in `upload`, for the
 * recorded path and for a device's refusal alike: the code made storable (lone surrogates and NUL
 * written out), the scan time the device claimed (not the session start it may have been set to,
 * decision 088), and the sender beside the maker only when they differ (decision 077).
 */
function offlineScanRow(upload: ItemUpload, scan: OfflineScan, kept: Pick<ItemOutcome, 'answer' | 'code' | 'ticketId' | 'conflictingCheckInId'>): typeof offlineScans.$inferInsert {
  const { uploader, makerId, maker, event, day, receivedAt } = upload;
  const { answer } = kept;
  return {
    scanId: scan.scanId,
    eventId: event.id,
    day,
    userId: makerId,
    sentBy: maker.claimedMaker === uploader.userId ? null : uploader.userId,
    deviceId: scan.deviceId,
    code: renderTextSafely(kept.code),
    ticketId: kept.ticketId,
    offlineVerdict: scan.verdict,
    scannedAt: new Date(scan.scannedAt),
    receivedAt,
    status: answer.status,
    reason: answer.reason ?? null,
    message: answer.message ?? null,
    checkedInAt: answer.checkedInAt ? new Date(answer.checkedInAt) : null,
    checkedInBy: answer.checkedInBy ?? null,
    conflictingCheckInId: kept.conflictingCheckInId,
  };
}

type StoredRow = typeof offlineScans.$inferSelect;

async function findStored(db: DbOrTx, scanId: string): Promise<StoredRow | undefined> {
  const [row] = await db.select().from(offlineScans).where(eq(offlineScans.scanId, scanId)).limit(1);
  return row;
}

/**
 * The stored answer of an item sent before (by its maker or by a colleague for them); a scanId of
 * another maker, event or day is refused.
 */
function replay(row: StoredRow, makerId: string, event: EventDetails, day: number): ItemAnswer {
  if (row.userId !== makerId || row.eventId !== event.id || row.day !== day) {
    return reject(row.scanId, 'scan_id_taken', 'This scanId was already used for another scan.');
  }
  const answer: ItemAnswer = {
    scanId: row.scanId,
    status: row.status,
    ...(row.reason ? { reason: row.reason as OfflineRejection } : {}),
    ...(row.message ? { message: row.message } : {}),
    ...(row.checkedInAt ? { checkedInAt: row.checkedInAt.toISOString() } : {}),
    ...(row.checkedInBy ? { checkedInBy: row.checkedInBy } : {}),
  };
  return withExitRecorded(answer, row.offlineVerdict);
}

interface ItemOutcome {
  answer: ItemAnswer;
  /** The code to store and log: a genuine signed text's code, else the text as scanned. */
  code: string;
  ticketId: string | null;
  conflictingCheckInId: string | null;
  /** The scan log row to write (null: nothing new happened, e.g. a duplicate). */
  log: { verdict: 'approved' | 'denied' | 'exited'; reason: string | null } | null;
}

/**
 * A scan naming a maker who is not a member of the organization: no check-in (nobody the server
 * knows vouches for it), rejected `unknown_staff`, logged under its sender as what the gate did.
 */
function unknownMaker(scan: OfflineScan): ItemOutcome {
  return {
    answer: reject(scan.scanId, 'unknown_staff', 'The staff member who made this scan is not a member of this organization.'),
    code: scan.code,
    ticketId: null,
    conflictingCheckInId: null,
    log: { verdict: scan.verdict, reason: 'unknown_staff' },
  };
}

/**
 * The ticket `scan` names, read in the item's transaction: `code`, the code a genuine signed QR text
 * stands for (else the text as scanned; null when it cannot be stored or a signature is forged), and
 * `found`, the ticket with that code in any event (undefined: none).
 */
async function findScannedTicket(tx: DbOrTx, scan: OfflineScan) {
  // A signed QR text stands for its code when the signature verifies; a forged one for no ticket.
  const code = isStorableText(scan.code) ? await codeOfScannedText(tx, scan.code) : null;
  const [row] = code !== null
    ? await tx
        .select({ ticket: tickets, organizationId: events.organizationId, ...ticketTypeDoorColumns })
        .from(tickets)
        .innerJoin(events, eq(events.id, tickets.eventId))
        .leftJoin(ticketTypes, typeOfTicket)
        .where(ticketCodeMatches(code))
        .limit(1)
    : [];
  const found = row ? { ticket: row.ticket, organizationId: row.organizationId, ...ticketTypeDoorOf(row) } : undefined;
  return { code, found };
}

type ScannedTicket = Awaited<ReturnType<typeof findScannedTicket>>;

/**
 * Decides one item made by `makerId` (see the module comment) of `scanned` inside its transaction,
 * at `time.at`: the scan time, or the session's start when the scan claimed an earlier one
 * (`time.isClamped`).
 */
async function decideItem(tx: DbOrTx, makerId: string, place: ScanPlace, scan: OfflineScan, scanned: ScannedTicket, time: { at: Date; isClamped: boolean }, now: Date): Promise<ItemOutcome> {
  const { event, day, checkInList } = place;
  const { code, found } = scanned;
  const scannedAt = time.at;
  if (scannedAt.getTime() > now.getTime() + OFFLINE_SCAN_MAX_CLOCK_AHEAD_MS) {
    return { answer: reject(scan.scanId, 'scanned_in_future', 'The scan time is ahead of the server clock.'), code: scan.code, ticketId: null, conflictingCheckInId: null, log: null };
  }
  const ticketId = found && found.ticket.eventId === event.id ? found.ticket.id : null;
  const logged = code ?? scan.code;

  // A denial the device made is logged as it was — except an exit it found 'Not inside': it knew
  // only its door list and its own scans, the guest may have come in at another gate since. That
  // exit is decided here with the server's knowledge, as it would have been online (decision 150).
  const isExitToDecide = isExitNotKnownInside(scan);
  /** The device's denial, logged as the server's rule words it (or as the device did): nothing written. */
  const deniedAtGate = (reason: string | null): ItemOutcome => ({ answer: { scanId: scan.scanId, status: 'recorded' }, code: logged, ticketId, conflictingCheckInId: null, log: { verdict: 'denied', reason } });
  if (scan.verdict === 'denied' && !isExitToDecide) return deniedAtGate(scan.reason ?? null);

  // The device's online verify may have reached the server before the device gave up on it: an
  // entry or an exit it recorded, whatever the guest did since (docs/decisions/138).
  if (ticketId) {
    const same = await findMovementOfScan(tx, { eventId: event.id, ticketId, day, scanId: scan.scanId });
    if (same) {
      return { answer: withCheckIn(scan.scanId, 'duplicate', same), code: logged, ticketId, conflictingCheckInId: null, log: null };
    }
  }

  if (!found || !ticketId) {
    const decision = decideCheckIn({
      ticket: found ? ticketForRule(found.ticket, found.organizationId, found) : null,
      event,
      day,
      existingCheckIn: null,
      now: scannedAt,
      checkInList,
      direction: scan.direction,
    });
    if (decision.outcome !== 'denied') throw new Error('a check-in decision without a ticket');
    if (isExitToDecide) return deniedAtGate(decision.reason);
    return { answer: reject(scan.scanId, decision.reason, decision.message), code: logged, ticketId, conflictingCheckInId: null, log: { verdict: passage(scan), reason: decision.reason } };
  }
  const recorded = await recordAttempt(tx, {
    event,
    checkInList,
    day,
    ticket: found.ticket,
    organizationId: found.organizationId,
    typeDays: found.typeDays,
    direction: scan.direction,
    staffUserId: makerId,
    scanId: scan.scanId,
    at: scannedAt,
    now,
    offline: { receivedAt: now, deviceId: scan.deviceId, isTimeClamped: time.isClamped },
  });
  const outcome = (answer: ItemAnswer, log: ItemOutcome['log'], conflictingCheckInId: string | null = null): ItemOutcome => ({ answer, code: logged, ticketId, conflictingCheckInId, log });
  // The guest was not inside at the scan time here either (or the list records no exits): the
  // device's denial stands, logged only, as before decision 150.
  if (isExitToDecide && recorded.outcome === 'denied') return deniedAtGate(recorded.denial.reason);
  if (recorded.outcome === 'denied') {
    // The gate let the person in (or out); the server's rule says no: answered as rejected, logged
    // as the passage it was with the server's reason, so a supervisor sees it.
    return outcome(reject(scan.scanId, recorded.denial.reason, recorded.denial.message), { verdict: passage(scan), reason: recorded.denial.reason });
  }
  if (recorded.outcome === 'conflict') {
    const first = { checkedInAt: recorded.standing.checkedInAt, checkedInBy: recorded.standing.staffName };
    return outcome(
      { ...withCheckIn(scan.scanId, 'conflict', first), message: `This ticket was already checked in for day ${day} by ${first.checkedInBy}.` },
      { verdict: 'approved', reason: 'conflict' },
      recorded.standing.id,
    );
  }
  const [maker] = await tx.select({ name: users.displayName }).from(users).where(eq(users.id, makerId));
  const makerName = maker?.name ?? '';
  // The movement's own scan again (its online answer was lost, the device queued it): answered and
  // logged once.
  if (recorded.outcome === 'same_scan') return outcome(withCheckIn(scan.scanId, 'duplicate', { checkedInAt: recorded.at, checkedInBy: makerName }), null);
  // A time set to the session's start is marked, so a supervisor knows the time is not the gate's.
  const reason = time.isClamped ? 'scanned_before_session' : null;
  // Older than the check-in's latest movement: recorded as history, logged as the passage it was
  // (docs/decisions/138); who is inside now is the later movement's.
  if (recorded.outcome === 'late') return outcome(withCheckIn(scan.scanId, 'recorded', { checkedInAt: recorded.at, checkedInBy: makerName }), { verdict: passage(scan), reason });
  if (recorded.outcome === 'exited') return outcome(withCheckIn(scan.scanId, 'recorded', { checkedInAt: recorded.exitedAt, checkedInBy: makerName }), { verdict: 'exited', reason });
  const admitted = { checkedInAt: recorded.enteredAt, checkedInBy: makerName };
  if (recorded.overCapacity) {
    // A device offline cannot know the other gates' count: the guest is in, listed among the conflicts.
    const { insideNow, capacity } = recorded.overCapacity;
    return outcome(
      { ...withCheckIn(scan.scanId, 'conflict', admitted), reason: 'at_capacity', message: `${atCapacityMessage(insideNow)} (capacity ${capacity}): admitted offline over the capacity.` },
      { verdict: 'approved', reason: 'at_capacity' },
      recorded.checkInId,
    );
  }
  return outcome(withCheckIn(scan.scanId, 'recorded', admitted), { verdict: 'approved', reason });
}

/**
 * Whether `scan` is an exit the device denied 'Not inside' (`not_inside`): the upload decides it
 * again with the server's knowledge (decision 150) instead of only logging it. Its verdict and
 * reason are what an app before decision 150 queued too, so those queues are decided alike.
 */
function isExitNotKnownInside(scan: OfflineScan): boolean {
  return scan.verdict === 'denied' && scan.direction === 'exit' && scan.reason === 'not_inside';
}

/**
 * `answer` with `isExitRecorded` when it says the server recorded an exit the device had denied
 * (decision 150): the device denied it (`offlineVerdict`), and the answer is `recorded` or
 * `duplicate` with the exit's time — a denial only logged never carries a time. Derived, not
 * stored, so a re-sent item answers the same from its offline_scans row.
 */
function withExitRecorded(answer: ItemAnswer, offlineVerdict: string): ItemAnswer {
  const isExitRecorded = offlineVerdict === 'denied' && (answer.status === 'recorded' || answer.status === 'duplicate') && answer.checkedInAt !== undefined;
  return isExitRecorded ? { ...answer, isExitRecorded: true } : answer;
}

/** How a scan's attempt is logged: an exit as `exited`, an entry as the admission it was. */
function passage(scan: OfflineScan): 'approved' | 'exited' {
  return scan.direction === 'exit' ? 'exited' : 'approved';
}

function withCheckIn(scanId: string, status: OfflineScanStatus, checkIn: { checkedInAt: Date; checkedInBy: string }): ItemAnswer {
  return { scanId, status, checkedInAt: checkIn.checkedInAt.toISOString(), checkedInBy: checkIn.checkedInBy };
}

function reject(scanId: string, reason: OfflineRejection, message: string): ItemAnswer {
  return { scanId, status: 'rejected', reason, message };
}

/** The `scanId` of an item that failed validation, when it has a well-formed one. */
function scanIdOf(raw: unknown): string | null {
  const candidate = typeof raw === 'object' && raw !== null ? (raw as { scanId?: unknown }).scanId : undefined;
  return typeof candidate === 'string' && OfflineScan.shape.scanId.safeParse(candidate).success ? candidate : null;
}

/**
 * The conflicts of `eventId` on `day` (issue 12 item 5), oldest scan first: each offline admission
 * of a ticket the server already had as checked in, with both gates and times. With
 * `checkInListId`, only those at that list (the list of the check-in it conflicts with: an upload
 * conflicts only with a check-in at its own list).
 */
export async function listConflicts(db: DbOrTx, eventId: string, day: number, checkInListId?: string): Promise<OfflineConflict[]> {
  const offlineStaff = alias(users, 'offline_staff');
  const existingStaff = alias(users, 'existing_staff');
  const rows = await db
    .select({
      scanId: offlineScans.scanId,
      code: tickets.code,
      holderName: tickets.holderName,
      scannedAt: offlineScans.scannedAt,
      receivedAt: offlineScans.receivedAt,
      deviceId: offlineScans.deviceId,
      staffName: offlineStaff.displayName,
      existingAt: checkIns.checkedInAt,
      existingBy: existingStaff.displayName,
      reason: offlineScans.reason,
    })
    .from(offlineScans)
    .innerJoin(tickets, eq(tickets.id, offlineScans.ticketId))
    .innerJoin(offlineStaff, eq(offlineStaff.id, offlineScans.userId))
    .innerJoin(checkIns, and(eq(checkIns.eventId, offlineScans.eventId), eq(checkIns.id, offlineScans.conflictingCheckInId)))
    .innerJoin(existingStaff, eq(existingStaff.id, checkIns.staffUserId))
    .where(
      and(
        eq(offlineScans.eventId, eventId),
        eq(offlineScans.day, day),
        eq(offlineScans.status, 'conflict'),
        checkInListId === undefined ? undefined : eq(checkIns.checkInListId, checkInListId),
      ),
    )
    .orderBy(asc(offlineScans.scannedAt), asc(offlineScans.scanId));
  return rows.map((row) => ({
    scanId: row.scanId,
    code: row.code,
    holderName: row.holderName,
    offline: { scannedAt: row.scannedAt.toISOString(), receivedAt: row.receivedAt.toISOString(), deviceId: row.deviceId, staffName: row.staffName },
    existing: { checkedInAt: row.existingAt.toISOString(), checkedInBy: row.existingBy },
    ...(row.reason === 'at_capacity' ? { kind: 'at_capacity' as const } : {}),
  }));
}
