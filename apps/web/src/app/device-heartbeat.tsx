/**
 * A door device's heartbeat (docs/decisions/116): on every signed-in screen, at once and every
 * DEVICE_HEARTBEAT_MS, it reports its platform, app version and the scans waiting in its outbox
 * (every user's: they all wait on this phone), so the devices page shows it online with its queue.
 * The answer says where the device scans now: a device moved to another event or check-in list
 * follows (./device-move.ts, docs/decisions/127) and says so. A call refused for the list it names
 * (the device was moved meanwhile, docs/decisions/129) beats at once, at most every
 * LIST_REFUSED_BEAT_MS. Beats run one at a time, at most one waiting, so answers apply in order.
 * Loaded lazily by RequireAuth for a device only. Renders nothing.
 */
import { DEVICE_HEARTBEAT_MS } from '@gatecheck/contract/devices';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { reportDeviceStatus } from '@/features/devices/device-self.ts';
import { openOfflineDb } from '@/features/scanner/offline/offline-db.ts';
import { summarizeOutbox } from '@/features/scanner/offline/outbox.ts';
import { onListRefused } from '@/lib/list-refused.ts';
import { notify } from '@/lib/toast.ts';
import { followDeviceMove, keepDeviceListChosen } from './device-move.ts';
import { useSession, useSessionStore } from './session-provider.tsx';

/** Scans waiting in this device's outbox, of any user; 0 without IndexedDB. */
async function scansWaiting(): Promise<number> {
  const db = await openOfflineDb().catch(() => null);
  if (!db) return 0;
  const summary = await summarizeOutbox(db, '');
  return summary.waitingScanIds.length;
}

/** The least time between two beats asked for by refusals of the list (ms): a sync and a verify refused together beat once. */
const LIST_REFUSED_BEAT_MS = 5_000;

export default function DeviceHeartbeat() {
  const { t } = useTranslation();
  const session = useSessionStore();
  const { user } = useSession();
  const queryClient = useQueryClient();
  // The newest signed-in user for the timer's beats (a shift change does not restart the timer).
  const userRef = useRef(user);
  userRef.current = user;
  const tRef = useRef(t);
  tRef.current = t;

  useEffect(() => {
    // Aborted when the heartbeat stops (signed out, the device removed, the screen gone): a beat
    // still on its way then applies nothing of its answer — a late "moved" must not store the
    // signed-out device again nor move the choices of whoever uses the phone next.
    const stopped = new AbortController();
    const { signal } = stopped;
    // Signed out (or the session ended): stopped at once, before React unmounts this component.
    const stopListeningSession = session.subscribe(() => {
      if (session.getState().status !== 'authenticated') stopped.abort();
    });
    const beat = async () => {
      const reported = await reportDeviceStatus(await scansWaiting().catch(() => 0), userRef.current?.device);
      const current = userRef.current;
      if (!current || signal.aborted) return;
      const moved = await followDeviceMove(current, reported, queryClient, signal);
      if (!moved) {
        await keepDeviceListChosen(current, queryClient, tRef.current('lists.deviceListName'), signal).catch(() => undefined);
        return;
      }
      if (signal.aborted) return;
      // The next beat reads the moved device even before React renders the session's new user.
      userRef.current = moved;
      session.switchShift(moved);
      // Raised before the selection's step to another screen: it stays on the screen the move leads to.
      notify({ id: 'device-moved', scope: 'next-screen', title: tRef.current('devices.movedNotice') });
    };
    // One beat at a time, at most one waiting (docs/decisions/129): an answer is applied only after
    // every answer to an earlier beat. Beats side by side could come back out of order, and the late
    // answer of an older beat (still naming list A) would send a phone that already followed its move
    // to B back to A, where its scans are refused once the server has told it of the move.
    let running: Promise<void> | null = null;
    let isWaiting = false;
    const askForBeat = () => {
      if (running) {
        isWaiting = true;
        return;
      }
      running = beat()
        .catch(() => undefined)
        .finally(() => {
          running = null;
          if (!isWaiting || signal.aborted) return;
          isWaiting = false;
          askForBeat();
        });
    };
    askForBeat();
    const timer = setInterval(askForBeat, DEVICE_HEARTBEAT_MS);
    let lastAskedAt = 0;
    const stopListening = onListRefused(() => {
      if (Date.now() - lastAskedAt < LIST_REFUSED_BEAT_MS) return;
      lastAskedAt = Date.now();
      askForBeat();
    });
    return () => {
      stopped.abort();
      stopListeningSession();
      clearInterval(timer);
      stopListening();
    };
  }, [queryClient, session]);
  return null;
}
