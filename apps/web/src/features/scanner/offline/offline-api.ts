/**
 * The offline check-in calls (issue 12, docs/decisions/044, 045, 043), through the one api-client:
 * the door list, the signing keys and the outbox upload (the day's conflicts are check-in data,
 * lib/check-ins; the server probe is lib/server-probe.ts).
 * The door list and the keys come back unparsed: their stores parse them, so a corrupt answer is
 * told apart from a failed download.
 */
import { OfflineScanBatchResponse, type OfflineScan, type OfflineScanBatch } from '@gatecheck/contract/offline-scans';
import { offlinePaths } from '@gatecheck/contract/paths';
import { z } from 'zod';
import { apiRequest } from '@/lib/api-client.ts';
import { readStoredToken } from '@/lib/stored-user.ts';
import type { OfflineDb } from './offline-db.ts';
import { type SendOfflineScans, type UploadOutcome, uploadOutbox } from './outbox.ts';

/**
 * GET door-list[?since=cursor][&checkInListId=]: the body, unparsed; the list's check-ins when a
 * check-in list is named (docs/decisions/109). @throws {ApiError} on no answer or an error answer.
 */
export function fetchDoorList(eventId: string, day: number, since: string | null, checkInListId?: string): Promise<unknown> {
  const query = new URLSearchParams({ ...(since === null ? {} : { since }), ...(checkInListId ? { checkInListId } : {}) }).toString();
  return apiRequest(`${offlinePaths.doorList(eventId, day)}${query ? `?${query}` : ''}`, { schema: z.unknown() });
}

/** GET signing-keys: the body, unparsed. @throws {ApiError} on no answer or an error answer. */
export function fetchSigningKeys(eventId: string): Promise<unknown> {
  return apiRequest(offlinePaths.signingKeys(eventId), { schema: z.unknown() });
}

/**
 * POST offline-scans with `scans` in scan order, under the session of `token` (omitted: the one
 * stored now); `signal` gives up waiting (the server may still record them: sending them again is
 * safe, it keeps one row per scan id).
 * @throws {ApiError} on no answer, an error answer or an unexpected body.
 */
export function sendOfflineScans(
  eventId: string,
  day: number,
  scans: OfflineScan[],
  options: { token?: string | null; signal?: AbortSignal; checkInListId?: string | undefined } = {},
): Promise<OfflineScanBatchResponse> {
  const { checkInListId, ...request } = options;
  const body: OfflineScanBatch = { scans, ...(checkInListId ? { checkInListId } : {}) };
  return apiRequest(offlinePaths.offlineScans(eventId, day), { method: 'POST', body, schema: OfflineScanBatchResponse, ...request });
}

/**
 * The sender of one upload round (`uploadOutbox`), bound to the session stored now: every batch of
 * the round goes under that session, so a round that outlives a logout never goes on under the next
 * user's (the ended session's 401 keeps the rest queued). `signal` gives up waiting.
 */
export async function roundSender(signal?: AbortSignal): Promise<SendOfflineScans> {
  const token = await readStoredToken();
  return (eventId, day, scans, checkInListId) => sendOfflineScans(eventId, day, scans, { token, signal, checkInListId });
}

/**
 * One upload round of the outbox under the session stored now (`roundSender`) that gives up after
 * `timeoutMs`: one deadline for waiting on a round already under way (`uploadOutbox` runs one at a
 * time) and for sending, so a round hanging on a black-holed door network cannot hold the caller
 * past it (a logout, a removed or moved door device; docs/decisions/146).
 * @throws only when IndexedDB fails (a failed request is `failed: true`).
 */
export async function uploadOutboxWithin(db: OfflineDb, userId: string, timeoutMs: number): Promise<UploadOutcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  return uploadOutbox(db, userId, await roundSender(signal), { signal });
}
