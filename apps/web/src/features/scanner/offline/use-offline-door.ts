/**
 * The scanner's offline side for one event day (issue 12 items 2–6, docs/decisions/052): keeps the
 * door list and signing keys fresh (on open, every `DOOR_LIST_SYNC_MS`, and on 'Sync now'), decides
 * scans on the device when the server does not answer, queues those decisions in the outbox and sends
 * it whenever the server answers again, with the SPEC §9 backoff after a failed upload.
 *
 * With the server answering nothing of SPEC §7 changes: verify is still the one call that decides.
 */
import type { DoorList } from '@gatecheck/contract/door-list';
import type { EventSigningKey } from '@gatecheck/contract/signed-ticket';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { EventItem, SelectedDay } from '@/lib/entities.ts';
import { watchServer } from '@/lib/server-probe.ts';
import { readStoredToken } from '@/lib/stored-user.ts';
import { connectivityReducer, decidesLocally, initialConnectivity, type Connectivity } from './connectivity.ts';
import { readDoorList, syncDoorList } from './door-list-store.ts';
import { fetchDoorList, fetchSigningKeys, roundSender } from './offline-api.ts';
import { decideOffline, forgetLocalCheckIn, rememberOnlineVerdict } from './offline-decision.ts';
import { deviceId, eventDayKey, openOfflineDb, type OfflineDb } from './offline-db.ts';
import { dismissSetAside, isListLessHere, queueOfflineScan, sessionProofOf, summarizeOutbox, unsentAdmissionCheck, uploadOutbox, type OutboxItem, type OutboxSummary } from './outbox.ts';
import { createOutboxRounds, type OutboxRounds } from './outbox-rounds.ts';
import { readSigningKeys, syncSigningKeys } from './signed-tickets.ts';
import { recordUpload } from '../recent-scans-query.ts';
import type { Verdict } from '../scanner-logic.ts';

/** The door list is downloaded again this often while the scanner is open, in ms (issue 12 item 2). */
export const DOOR_LIST_SYNC_MS = 60_000;

/** The door list kept for the day, as the decisions read it (`StoredDoorList`'s `list`, `syncedAt`, `syncSeq`). */
type KeptDoorList = { list: DoorList; syncedAt: string; syncSeq?: number | undefined };

/** The signed-in staff member, as the offline side needs them. */
export interface Staff {
  id: string;
  name: string;
  /**
   * The check-in list the server records this user's scans naming no list at: a door device's own
   * list, else the event's first (undefined: not known). At that list, the scans and admissions this
   * device kept naming no list — a door device's from before its list was kept with its chosen day
   * (docs/decisions/129) — count as the list's own.
   */
  listLessListId?: string | undefined;
}

/** What the scanner screen shows and calls. */
export interface OfflineDoor {
  connectivity: Connectivity;
  /** When the day's door list was last downloaded (ISO 8601), or null when this device has none. */
  lastSyncedAt: string | null;
  /** The last download was corrupt and was discarded (the last good list is kept). */
  isListDiscarded: boolean;
  isSyncing: boolean;
  /** Scans of this user waiting to be sent. */
  waitingCount: number;
  /**
   * Scans of other users waiting on this device: sent under this user's session naming their maker,
   * or kept for a member of their organization (decisions 076, 077).
   */
  othersWaitingCount: number;
  /** Approvals of this event day waiting on this device to be sent (any user's): not yet in the server's count. */
  approvalsWaitingCount: number;
  /** Scans the server would not take, with its reason. */
  setAside: OutboxItem[];
  /**
   * Whether the scan `scanId` waits in this device's outbox: the server does not know it yet, so it
   * cannot be undone there (the scanner offers 'Undo check-in' once it has been sent).
   */
  isWaitingToSend(scanId: string): boolean;
  /** Downloads the list's changes and sends the outbox now ('Sync now'). */
  syncNow(): void;
  dismissSetAside(scanId: string): void;
  /** Whether the next scan is decided here without asking the server (offline mode, or the browser is offline). */
  decidesLocally(): boolean;
  /**
   * Decides a scan on the device and queues it under `scanId`; null when the device cannot decide
   * (no door list, not a genuine signed ticket). @throws when IndexedDB fails.
   */
  decide(scan: { scanId: string; code: string; scannedAt: Date; direction?: 'exit' | undefined }): Promise<Verdict | null>;
  /** The verify got no answer (timeout or network). */
  verifyFailed(): void;
  /**
   * The server answered a verify (or a supervisor's manual check-in) of `code`: back online; what the
   * verdict says of the guest — in, out, already in — is kept on the device (`rememberOnlineVerdict`).
   */
  verifyAnswered(code: string, verdict: Verdict): void;
  /** A supervisor undid ticket `code`'s check-in on the server: the device forgets its own record of it. */
  checkInUndone(code: string): void;
  /**
   * Whether this device admitted `code` on this day in a scan not yet sent (any user's): then the
   * device, not the server, knows the ticket is used, and decides it (`decide`) even online.
   */
  hasUnsentAdmission(code: string): Promise<boolean>;
}

/**
 * @param event the selected event; `day` its selected day; `staff` the signed-in user (null: the
 *   offline side stays idle — nothing is queued without a user to send it as).
 *
 * A scan the server answers `conflict` for is marked 'Conflict' in the day's recent scans
 * (`recordUpload`, under the day each scan was made on), and every day it sent scans of is refreshed.
 */
export function useOfflineDoor(event: EventItem, day: SelectedDay, staff: Staff | null): OfflineDoor {
  const eventId = event.id;
  const dayNumber = day.day;
  // The door list, this device's admissions and its queued scans are per check-in list (docs/decisions/109).
  const checkInListId = day.checkInList?.id;
  // Queued scans and admissions kept naming no list are this list's too (docs/decisions/129): a door
  // device upgraded mid-day has them, and the server records them here.
  const includesListLess = isListLessHere(checkInListId, staff?.listLessListId);
  const [connectivity, dispatch] = useReducer(connectivityReducer, initialConnectivity);
  const connectivityRef = useRef(connectivity);
  connectivityRef.current = connectivity;
  const [doorList, setDoorList] = useState<KeptDoorList | null>(null);
  // The kept list, when its sync began (device clock) and its sync's number, read by the decisions (offline-decision.ts).
  const doorListRef = useRef<KeptDoorList | null>(null);
  const keysRef = useRef<EventSigningKey[]>([]);
  const [isListDiscarded, setListDiscarded] = useState(false);
  const [isSyncing, setSyncing] = useState(false);
  const [summary, setSummary] = useState<OutboxSummary>({ waiting: 0, othersWaiting: 0, setAside: [], waitingScanIds: [], approvalsWaiting: {} });
  const queryClient = useQueryClient();
  const staffId = staff?.id ?? null;

  // The page's one connection (reopened after a close); null when IndexedDB is unavailable, and then
  // the scanner simply behaves as SPEC §7 (no door list, no offline decisions).
  // No selected event id (SPEC §5 refuses every check): nothing to download or decide either.
  const db = useCallback((): Promise<OfflineDb | null> => (eventId === '' ? Promise.resolve(null) : openOfflineDb().catch(() => null)), [eventId]);

  // False once the scanner is left: the syncs and uploads still under way then change no state and
  // schedule nothing more (their IndexedDB writes still finish, so nothing queued is lost).
  const isMountedRef = useRef(true);
  useEffect(() => {
    isMountedRef.current = true;
    return () => {
      isMountedRef.current = false;
    };
  }, []);

  const refreshSummary = useCallback(async () => {
    const open = await db();
    if (!open || staffId === null) return;
    const next = await summarizeOutbox(open, staffId).catch(() => null);
    if (next && isMountedRef.current) setSummary(next);
  }, [db, staffId]);

  // One upload at a time; after a failed one, the next try waits 1 s, 2 s, 4 s … 30 s (SPEC §9;
  // ./outbox-rounds.ts, shared with the other screens' sender). New rounds when what a round
  // needs changes; the old ones stop.
  const roundsRef = useRef<OutboxRounds | null>(null);
  useEffect(() => {
    const rounds = createOutboxRounds(async () => {
      const open = await db();
      if (!open || staffId === null) return { failed: false };
      try {
        const outcome = await uploadOutbox(open, staffId, await roundSender());
        // The check-ins just recorded on the server count now (header 'Checked in N / M', the
        // 'Conflicts', the scan log), also after a round that failed part way.
        recordUpload(queryClient, outcome);
        if (isMountedRef.current && !outcome.failed && outcome.sent > 0) dispatch({ type: 'serverAnswered' });
        return outcome;
      } finally {
        await refreshSummary();
      }
    });
    roundsRef.current = rounds;
    return () => rounds.stop();
  }, [db, staffId, refreshSummary, queryClient]);
  const upload = useCallback(async (): Promise<void> => {
    await roundsRef.current?.run();
  }, []);

  const sync = useCallback(async () => {
    const open = await db();
    if (!open || !isMountedRef.current) return;
    setSyncing(true);
    try {
      const [outcome] = await Promise.all([
        syncDoorList(open, { eventId, day: dayNumber, checkInListId }, fetchDoorList).catch((error: unknown) => ({ status: 'failed' as const, error, stored: null })),
        syncSigningKeys(open, eventId, fetchSigningKeys).then(
          (keys) => {
            keysRef.current = keys;
          },
          () => undefined,
        ),
      ]);
      if (!isMountedRef.current) return;
      if (outcome.stored) {
        doorListRef.current = { list: outcome.stored.list, syncedAt: outcome.stored.syncedAt, syncSeq: outcome.stored.syncSeq };
        setDoorList(doorListRef.current);
      }
      setListDiscarded(outcome.status === 'corrupt');
      if (outcome.status !== 'failed') dispatch({ type: 'serverAnswered' });
    } finally {
      if (isMountedRef.current) setSyncing(false);
    }
    if (isMountedRef.current) await upload();
  }, [db, eventId, dayNumber, checkInListId, upload]);

  // On open: what is kept for the day, then a download; then every 60 s.
  useEffect(() => {
    let isCurrent = true;
    void (async () => {
      const open = await db();
      if (!open || !isCurrent) return;
      const [stored, keys] = await Promise.all([readDoorList(open, eventId, dayNumber, checkInListId).catch(() => null), readSigningKeys(open, eventId).catch(() => [])]);
      if (!isCurrent) return;
      doorListRef.current = stored ? { list: stored.list, syncedAt: stored.syncedAt, syncSeq: stored.syncSeq } : null;
      keysRef.current = keys;
      setDoorList(doorListRef.current);
      await refreshSummary();
      await sync();
    })();
    const timer = setInterval(() => void sync(), DOOR_LIST_SYNC_MS);
    return () => {
      isCurrent = false;
      clearInterval(timer);
    };
  }, [db, eventId, dayNumber, checkInListId, sync, refreshSummary]);

  // Offline mode: the server is probed every 5 s (one probe shared with the 'Offline' strip,
  // lib/server-probe.ts); its first answer brings the scanner back online and sends the outbox.
  const isOffline = connectivity.mode === 'offline';
  useEffect(() => {
    if (!isOffline) return;
    return watchServer(() => {
      dispatch({ type: 'serverAnswered' });
      void sync();
    });
  }, [isOffline, sync]);

  // This user's scans wait while the scanner is still online (a verify without an answer was decided
  // here): the server is probed too, and its first answer sends them, not the next door-list sync
  // (up to 60 s later, with the day's count off by them meanwhile and a conflict found that much
  // later). A round the server answered with an error keeps its backoff (`nudge`). Colleagues' scans
  // go with these, or with the sync: one the server refused waits for a member and is not re-sent
  // on every probe.
  const hasOwnWaiting = summary.waiting > 0;
  useEffect(() => {
    if (isOffline || !hasOwnWaiting) return;
    return watchServer(() => roundsRef.current?.nudge());
  }, [isOffline, hasOwnWaiting]);

  // The browser says it is back: try the outbox at once.
  useEffect(() => {
    const onOnline = () => void upload();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [upload]);

  const staffName = staff?.name ?? '';
  const decide = useCallback(
    async ({ scanId, code, scannedAt, direction }: { scanId: string; code: string; scannedAt: Date; direction?: 'exit' | undefined }) => {
      const open = await db();
      if (!open || staffId === null) return null;
      const verdict = await decideOffline(open, {
        eventId,
        day: dayNumber,
        checkInListId,
        includesListLess,
        code,
        direction,
        now: scannedAt,
        staffName,
        doorList: doorListRef.current?.list ?? null,
        doorListSyncedAt: doorListRef.current?.syncedAt,
        doorListSyncSeq: doorListRef.current?.syncSeq,
        signingKeys: keysRef.current,
        event: { id: eventId, name: event.name, organizationId: doorListRef.current?.list.event.organizationId ?? '', status: event.closedStatus === null ? 'live' : event.closedStatus === 'closed' ? 'completed' : event.closedStatus, timeZone: event.timeZone, dayCutoff: event.dayCutoff, allowsScanningOutsideDays: event.allowsScanningOutsideDays, days: event.eventDays.length > 0 ? event.eventDays : [day] },
      });
      if (verdict === null) return null;
      const scan = { scanId, code, scannedAt: scannedAt.toISOString(), deviceId: await deviceId(open) };
      // Made in this session, provably (decision 088): whoever sends it later, it stays this user's scan.
      const sessionProof = await sessionProofOf(await readStoredToken(), scan);
      await queueOfflineScan(open, {
        ...scan,
        eventId,
        day: dayNumber,
        ...(checkInListId ? { checkInListId } : {}),
        userId: staffId,
        verdict: verdict.isValid ? 'approved' : 'denied',
        // Exits are queued like entries, and sent as exits (docs/decisions/113).
        ...(direction === 'exit' ? { direction } : {}),
        ...(verdict.isValid ? {} : verdict.denial.reason ? { reason: verdict.denial.reason } : {}),
        ...(sessionProof ? { sessionProof } : {}),
      });
      await refreshSummary();
      return verdict;
    },
    [db, staffId, staffName, eventId, dayNumber, checkInListId, includesListLess, event, day, refreshSummary],
  );

  const verifyFailed = useCallback(() => dispatch({ type: 'verifyFailed' }), []);
  const verifyAnswered = useCallback(
    (code: string, verdict: Verdict) => {
      const wasOffline = connectivityRef.current.failures > 0 || connectivityRef.current.mode === 'offline';
      dispatch({ type: 'serverAnswered' });
      // What the server said of the guest (in, out, already in) holds on this device once the network fails.
      const answer = { verdict, staffName, now: new Date(), doorList: doorListRef.current?.list ?? null, doorListSyncedAt: doorListRef.current?.syncedAt, doorListSyncSeq: doorListRef.current?.syncSeq };
      void db()
        .then((open) => (open ? rememberOnlineVerdict(open, { eventId, day: dayNumber, checkInListId, includesListLess, code }, answer) : undefined))
        .catch(() => undefined);
      // The server answers: anything waiting on this device (a colleague's too, decision 077) goes now.
      if (wasOffline || summary.waiting + summary.othersWaiting > 0) void upload();
    },
    [db, eventId, dayNumber, checkInListId, includesListLess, staffName, upload, summary.waiting, summary.othersWaiting],
  );

  const checkInUndone = useCallback(
    (code: string) => {
      void db()
        .then((open) => (open ? forgetLocalCheckIn(open, { eventId, day: dayNumber, checkInListId, includesListLess, code }) : undefined))
        .catch(() => undefined);
    },
    [db, eventId, dayNumber, checkInListId, includesListLess],
  );

  const approvalsWaitingToday =
    (summary.approvalsWaiting[eventDayKey(eventId, dayNumber, checkInListId)] ?? 0) + (includesListLess ? (summary.approvalsWaiting[eventDayKey(eventId, dayNumber)] ?? 0) : 0);
  const isAdmittedUnsent = useMemo(() => unsentAdmissionCheck(eventId, dayNumber, { checkInListId, includesListLess }), [eventId, dayNumber, checkInListId, includesListLess]);
  const hasUnsentAdmissionHere = useCallback(
    // Nothing of this day waits: no IndexedDB read on the way to every verify.
    (code: string) => (approvalsWaitingToday === 0 ? Promise.resolve(false) : isAdmittedUnsent(code)),
    [approvalsWaitingToday, isAdmittedUnsent],
  );

  const dismiss = useCallback(
    (scanId: string) => {
      void db()
        .then(async (open) => {
          if (!open) return;
          await dismissSetAside(open, scanId);
          await refreshSummary();
        })
        .catch(() => undefined);
    },
    [db, refreshSummary],
  );

  return {
    connectivity,
    lastSyncedAt: doorList?.syncedAt ?? null,
    isListDiscarded,
    isSyncing,
    waitingCount: summary.waiting,
    othersWaitingCount: summary.othersWaiting,
    approvalsWaitingCount: approvalsWaitingToday,
    setAside: summary.setAside,
    isWaitingToSend: (scanId) => summary.waitingScanIds.includes(scanId),
    syncNow: () => void sync(),
    dismissSetAside: dismiss,
    decidesLocally: () => decidesLocally(connectivityRef.current, typeof navigator === 'undefined' || navigator.onLine !== false),
    decide,
    verifyFailed,
    verifyAnswered,
    checkInUndone,
    hasUnsentAdmission: hasUnsentAdmissionHere,
  };
}
