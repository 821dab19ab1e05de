/**
 * Gates as the phones run them during a fault (docs/decisions/052): each scans a new ticket every
 * `intervalMs` and sends POST tickets/verify; an answer within the phone's offline cut-over
 * (`VERIFY_TIMEOUT_MS`, 3 s) is shown, no answer within it (or a 503 from the server) makes the
 * phone decide on the device and queue the scan under the same scanId. After the fault the queued
 * scans are uploaded (POST …/offline-scans) with their session proofs (decision 088), and the
 * database's contents are read back: every approval a gate showed must be one active check-in.
 */
import { randomUUID } from 'node:crypto';
import { apiPaths, OFFLINE_BATCH_MAX_ITEMS, offlinePaths, offlineScanProof, OfflineScanBatchResponse, VerifyTicketResponse } from '@gatecheck/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { checkIns, tickets } from '../../src/db/schema.ts';

/** The phone's offline cut-over (apps/web …/offline/connectivity.ts VERIFY_TIMEOUT_MS). */
export const PHONE_CUT_OVER_MS = 3_000;

/** One verify as a gate saw it. */
export interface VerifyOutcome {
  code: string;
  scanId: string;
  /** When it was sent, ms since the gates started. */
  sentAtMs: number;
  /** ms until the answer (or until the phone gave up at PHONE_CUT_OVER_MS). */
  elapsedMs: number;
  /** HTTP status; 0: no answer within the cut-over (the phone aborted it). */
  status: number;
  retryAfter: string | null;
  body: unknown;
  /** What the gate showed: approved by the server, denied by it, or decided on the device. */
  shown: 'approved' | 'denied' | 'offline';
}

/** A scan decided on the device and queued for upload. */
export interface QueuedScan {
  scanId: string;
  code: string;
  scannedAt: string;
  deviceId: string;
}

/** The door: where to send, as whom, which event day, and the supply of fresh ticket codes. */
export interface Door {
  baseUrl: string;
  token: string;
  eventId: string;
  day: number;
  nextCode(): string;
}

/** Gates scanning until `stop()`; what they saw and queued. */
export interface RunningGates {
  outcomes: VerifyOutcome[];
  queued: QueuedScan[];
  /** Stops scanning and waits for the verifies in flight. */
  stop(): Promise<void>;
}

/** Sends one verify with the phone's cut-over. */
export async function verifyOnce(door: Door, code: string, scanId: string, startedAt: number): Promise<VerifyOutcome> {
  const sentAt = performance.now();
  const sentAtMs = Math.round(sentAt - startedAt);
  try {
    const response = await fetch(`${door.baseUrl}/api${apiPaths.verifyTicket}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${door.token}` },
      body: JSON.stringify({ eventId: door.eventId, qrCode: code, day: door.day, scanId }),
      signal: AbortSignal.timeout(PHONE_CUT_OVER_MS),
    });
    const body: unknown = await response.json().catch(() => null);
    const elapsedMs = Math.round(performance.now() - sentAt);
    const verdict = response.status === 200 ? VerifyTicketResponse.parse(body) : undefined;
    const shown = verdict ? (verdict.isValid ? 'approved' : 'denied') : 'offline';
    return { code, scanId, sentAtMs, elapsedMs, status: response.status, retryAfter: response.headers.get('retry-after'), body, shown };
  } catch {
    return { code, scanId, sentAtMs, elapsedMs: Math.round(performance.now() - sentAt), status: 0, retryAfter: null, body: null, shown: 'offline' };
  }
}

/**
 * Starts `count` gates, each scanning a fresh ticket every `intervalMs`; outcome times are ms since
 * `startedAt` (a `performance.now()`; default: now).
 */
export function startGates(door: Door, count: number, intervalMs: number, startedAt = performance.now()): RunningGates {
  const outcomes: VerifyOutcome[] = [];
  const queued: QueuedScan[] = [];
  let isRunning = true;
  const gate = async (n: number) => {
    while (isRunning) {
      const code = door.nextCode();
      const scanId = randomUUID();
      const scannedAt = new Date().toISOString();
      const outcome = await verifyOnce(door, code, scanId, startedAt);
      outcomes.push(outcome);
      // A fresh ticket on a device with the door list: the device admits it and queues the scan.
      if (outcome.shown === 'offline') queued.push({ scanId, code, scannedAt, deviceId: `gate-${n}` });
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  };
  const running = Promise.all(Array.from({ length: count }, (_, n) => gate(n)));
  return {
    outcomes,
    queued,
    stop: async () => {
      isRunning = false;
      await running;
    },
  };
}

/**
 * Uploads the queued scans as the phones do once the server answers again.
 * @returns the server's answer per item.
 */
export async function uploadQueued(door: Door, queued: QueuedScan[]): Promise<OfflineScanBatchResponse['results']> {
  const results: OfflineScanBatchResponse['results'] = [];
  // In scan order, in batches of at most OFFLINE_BATCH_MAX_ITEMS, as the phone's outbox sends them.
  for (let start = 0; start < queued.length; start += OFFLINE_BATCH_MAX_ITEMS) {
    const scans = await Promise.all(
      queued.slice(start, start + OFFLINE_BATCH_MAX_ITEMS).map(async (item) => ({ ...item, verdict: 'approved' as const, sessionProof: await offlineScanProof(door.token, item) })),
    );
    const response = await fetch(`${door.baseUrl}/api${offlinePaths.offlineScans(door.eventId, door.day)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${door.token}` },
      body: JSON.stringify({ scans }),
      signal: AbortSignal.timeout(30_000),
    });
    if (response.status !== 200) throw new Error(`offline upload answered ${response.status}: ${await response.text()}`);
    results.push(...OfflineScanBatchResponse.parse(await response.json()).results);
  }
  return results;
}

/** Active check-ins (not undone) on the door's day, per ticket code, for `codes`. */
export async function activeCheckInsByCode(db: Db, door: Pick<Door, 'day'>, codes: string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ code: tickets.code, scanId: checkIns.scanId })
    .from(checkIns)
    .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
    .where(and(inArray(tickets.code, codes), eq(checkIns.day, door.day), isNull(checkIns.undoneAt)));
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.code, (counts.get(row.code) ?? 0) + 1);
  return counts;
}

/**
 * Polls GET /api/ready every `intervalMs` until `stop()`; each status with when it was asked and
 * answered (ms since `startedAt`, a `performance.now()`; default: now).
 */
export function pollReadiness(
  baseUrl: string,
  intervalMs: number,
  startedAt = performance.now(),
): { statuses: { atMs: number; doneAtMs: number; status: number }[]; stop(): Promise<void> } {
  const statuses: { atMs: number; doneAtMs: number; status: number }[] = [];
  let isRunning = true;
  const running = (async () => {
    while (isRunning) {
      const atMs = Math.round(performance.now() - startedAt);
      const status = await fetch(`${baseUrl}/api${apiPaths.ready}`, { signal: AbortSignal.timeout(PHONE_CUT_OVER_MS) }).then(
        (response) => response.status,
        () => 0,
      );
      statuses.push({ atMs, doneAtMs: Math.round(performance.now() - startedAt), status });
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    statuses,
    stop: async () => {
      isRunning = false;
      await running;
    },
  };
}
