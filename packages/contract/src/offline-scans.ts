/**
 * The outbox upload (issue 12 item 4–5, docs/decisions/045): a device sends the scans it decided
 * offline, batched in scan order, to POST /events/{eventId}/days/{day}/offline-scans. The server
 * records each exactly once (idempotent on `scanId`), keeps the device's `scannedAt` as the
 * check-in time, records its own receive time, and answers per item:
 *
 * - `recorded`: an offline approval became the ticket's check-in, or an offline denial was logged.
 *   An exit the device denied 'Not inside' is decided again by the server (docs/decisions/150): the
 *   device knew only its door list and its own scans; when the guest was inside at the scan time
 *   the exit is recorded, and the answer says so with `isExitRecorded` and the exit's time.
 * - `duplicate`: the server already had this very scan's check-in (the device's online verify
 *   reached the server before it gave up and decided offline): nothing new is recorded.
 * - `conflict`: the device admitted a ticket the server already had as checked in that day (another
 *   gate): kept as a conflict, both admissions in the scan log, listed by GET .../conflicts. Also an
 *   offline entry at a list with a capacity that found the list full (`reason: 'at_capacity'`,
 *   docs/decisions/111): capacity cannot be known offline; the guest is in, so the entry is recorded
 *   (inside-now goes over the capacity) and listed as a conflict.
 * - `rejected`: the item is ill-formed, its scanId belongs to another scan, its maker is not a
 *   member of the event's organization, or the server's rule denies the ticket (revoked, not valid
 *   that day, unknown…): `reason` and `message` say why. The device keeps rejected items aside with
 *   the reason; it does not send them again.
 *
 * A scan is recorded as made by its maker: the uploader, or `scannedBy` when a colleague made it on
 * the same device and signed out before it was sent (docs/decisions/077); the server keeps who sent
 * it as well.
 *
 * Sending the same batch again changes nothing and answers the same (each item's first answer is
 * stored). A bad item never fails the batch; only an ill-formed envelope (not a list, more than
 * OFFLINE_BATCH_MAX_ITEMS items) is a 400.
 */
import { z } from 'zod';
import { subtle, toBase64Url, utf8 } from './bytes.ts';
import { CheckInDirection, CheckInListId } from './check-in-lists.ts';
import { DenialReason } from './tickets.ts';
import { QR_CODE_MAX_LENGTH } from './tickets.ts';

/** Most items one upload may carry. */
export const OFFLINE_BATCH_MAX_ITEMS = 500;
/** Longest device id, in characters. */
export const DEVICE_ID_MAX_LENGTH = 100;
/**
 * How far a device's clock may be off the server's, in ms: a scan time more than this ahead of the
 * server's receipt is rejected; one more than this before the start of the session that made it is
 * taken as that start (decision 088).
 */
export const OFFLINE_SCAN_MAX_CLOCK_AHEAD_MS = 5 * 60 * 1000;

/** The verdict the device gave offline. */
export const OfflineVerdict = z.enum(['approved', 'denied']).meta({ id: 'OfflineVerdict' });
export type OfflineVerdict = z.infer<typeof OfflineVerdict>;

/**
 * One offline scan. `scanId`: client-generated UUID (the verify `scanId`). `code`: the text as
 * scanned. `scannedAt`: the device clock at the scan (ISO 8601 with offset). `deviceId`: the
 * device's stable id. `verdict`/`reason`: what the device decided offline. `scannedBy`: the user id
 * of the staff member who made the scan, when not the uploader (decision 077); absent: the uploader.
 * `sessionProof`: `offlineScanProof` of the item under the session it was made in (decision 088):
 * it proves the maker and the session the scan time must fall in. Without it (or when it does not
 * match) the uploader is the accountable staff member and the scan time must fall in the uploading
 * session.
 */
export const OfflineScan = z.object({
  scanId: z.uuid(),
  code: z.string().trim().min(1).max(QR_CODE_MAX_LENGTH),
  scannedAt: z.iso.datetime({ offset: true }),
  deviceId: z.string().trim().min(1).max(DEVICE_ID_MAX_LENGTH),
  verdict: OfflineVerdict,
  reason: DenialReason.optional(),
  scannedBy: z.uuid().optional(),
  sessionProof: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'an offlineScanProof (43 base64url characters)').optional(),
  /**
   * `exit`: the device recorded an exit offline (docs/decisions/111); absent: an entry. Exits are
   * queued like entries; an exit the server finds not inside is rejected `not_inside`. Not part of
   * `sessionProof`.
   */
  direction: CheckInDirection.optional(),
}).meta({ id: 'OfflineScan' });
export type OfflineScan = z.infer<typeof OfflineScan>;

/**
 * The proof that a scan was made in a session (decision 088): base64url(HMAC-SHA-256) over
 * `gatecheck-offline-scan-v1`, scanId, scannedAt, deviceId and code (one per line), keyed with the
 * SHA-256 (hex, UTF-8) of the session's bearer token — what the server keeps of the session, so it
 * can check the proof without the token, and what a device forgets when it signs out, so whoever
 * signs in next can send the scans it holds but cannot make new ones in a colleague's name.
 */
export async function offlineScanProof(sessionToken: string, scan: Pick<OfflineScan, 'scanId' | 'scannedAt' | 'deviceId' | 'code'>): Promise<string> {
  const tokenHash = toHex(new Uint8Array(await subtle().digest('SHA-256', utf8(sessionToken))));
  return offlineScanProofWithKey(tokenHash, scan);
}

/** `offlineScanProof` from the token's hash (the server's `sessions.token_hash`). */
export async function offlineScanProofWithKey(tokenHash: string, scan: Pick<OfflineScan, 'scanId' | 'scannedAt' | 'deviceId' | 'code'>): Promise<string> {
  const key = await subtle().importKey('raw', utf8(tokenHash), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const text = ['gatecheck-offline-scan-v1', scan.scanId, scan.scannedAt, scan.deviceId, scan.code].join('\n');
  return toBase64Url(new Uint8Array(await subtle().sign('HMAC', key, utf8(text))));
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The body: `scans` in scan order, at most OFFLINE_BATCH_MAX_ITEMS. Each item should be an
 * `OfflineScan`; an item that is not is rejected on its own (`invalid_item`), not the batch.
 * `checkInListId`: the check-in list the scans were made at (docs/decisions/100), as the day is
 * the path's: a device sends each list's scans in their own batches. Absent: the event's first list.
 * A list of another event is a 400 `bad_request` for the whole batch, nothing recorded.
 */
export const OfflineScanBatch = z.object({
  checkInListId: CheckInListId.optional(),
  // `OfflineScan` or anything: the document shows the item's shape, the server validates each item
  // on its own (an invalid one is rejected alone, the batch is not).
  scans: z.array(z.union([OfflineScan, z.unknown()]).meta({ description: 'An OfflineScan; validated item by item, an invalid item is rejected alone.' })).max(OFFLINE_BATCH_MAX_ITEMS),
}).meta({ id: 'OfflineScanBatch' });
export type OfflineScanBatch = z.infer<typeof OfflineScanBatch>;

/** Per-item outcome (see the module comment). */
export const OfflineScanStatus = z.enum(['recorded', 'duplicate', 'conflict', 'rejected']).meta({ id: 'OfflineScanStatus' });
export type OfflineScanStatus = z.infer<typeof OfflineScanStatus>;

/** Why an item was rejected: a denial reason of the rule, or a problem with the item itself. */
export const OfflineRejection = z.enum([...DenialReason.options, 'invalid_item', 'scan_id_taken', 'scanned_in_future', 'scanned_before_session', 'unknown_staff', 'device_revoked', 'device_moved']).meta({ id: 'OfflineRejection' });
export type OfflineRejection = z.infer<typeof OfflineRejection>;

/**
 * One item's answer, in the order sent. `scanId` is null only for an item too broken to carry one.
 * `checkedInAt` (ISO 8601): the ticket's check-in this item made (`recorded`, the device's scan
 * time), or the one already there (`duplicate`, `conflict`). `checkedInBy`: who made that one.
 */
export const OfflineScanResult = z.object({
  index: z.number().int(),
  scanId: z.string().nullable(),
  status: OfflineScanStatus,
  // A reason this app does not know (a newer server's, docs/decisions/094) reads as none.
  // On a `conflict`: absent (already checked in elsewhere) or `at_capacity`.
  reason: OfflineRejection.optional().catch(undefined),
  message: z.string().optional(),
  checkedInAt: z.string().optional(),
  checkedInBy: z.string().optional(),
  /**
   * True when the item is an exit the device denied 'Not inside' (`not_inside`) that the server
   * recorded as an exit: the guest was inside at its scan time (they came in at another gate, or
   * after the device's last door-list sync; docs/decisions/150). `checkedInAt` is then the exit's
   * time. Also on the `duplicate` answer of such an exit the device's online verify had recorded.
   */
  isExitRecorded: z.boolean().optional(),
}).meta({ id: 'OfflineScanResult' });
export type OfflineScanResult = z.infer<typeof OfflineScanResult>;

/** The answer: one result per item sent, same order; `receivedAt` is the server's clock. */
export const OfflineScanBatchResponse = z.object({
  receivedAt: z.string(),
  results: z.array(OfflineScanResult),
}).meta({ id: 'OfflineScanBatchResponse' });
export type OfflineScanBatchResponse = z.infer<typeof OfflineScanBatchResponse>;

/**
 * One conflict of the day (GET /events/{eventId}/days/{day}/conflicts): the ticket (code, holder
 * name), the offline admission (device, staff member, scan time, when the server received it) and
 * the admission the server already had (when, by whom).
 */
export const OfflineConflict = z.object({
  scanId: z.string(),
  code: z.string(),
  holderName: z.string(),
  offline: z.object({ scannedAt: z.string(), receivedAt: z.string(), deviceId: z.string(), staffName: z.string() }),
  /** For `at_capacity`: the offline entry itself (recorded over the capacity). */
  existing: z.object({ checkedInAt: z.string(), checkedInBy: z.string() }),
  /**
   * `already_checked_in` (absent, older server): another admission stood; `at_capacity`: the entry
   * found its list full (docs/decisions/111), `insideNow` counted then, with the list's `capacity`.
   */
  kind: z.enum(['already_checked_in', 'at_capacity']).optional(),
  insideNow: z.number().int().min(0).optional(),
  capacity: z.number().int().min(1).optional(),
}).meta({ id: 'OfflineConflict' });
export type OfflineConflict = z.infer<typeof OfflineConflict>;

/**
 * `?checkInListId=`: only the conflicts at that check-in list of the event (the list of the check-in
 * each conflicts with, docs/decisions/113), for the scanner at a chosen list; absent: every list's.
 * Another event's list: 400 `bad_request`.
 */
export const OfflineConflictsQuery = z.object({
  checkInListId: CheckInListId.optional(),
});
export type OfflineConflictsQuery = z.infer<typeof OfflineConflictsQuery>;

export const OfflineConflictList = z.object({
  conflicts: z.array(OfflineConflict),
}).meta({ id: 'OfflineConflictList' });
export type OfflineConflictList = z.infer<typeof OfflineConflictList>;
