/**
 * A door device's heartbeat (docs/decisions/116): on every signed-in screen, at once and every
 * DEVICE_HEARTBEAT_MS, it reports its platform, app version and the scans waiting in its outbox
 * (every user's: they all wait on this phone), so the devices page shows it online with its queue.
 * Loaded lazily by RequireAuth for a device only. Renders nothing.
 */
import { DEVICE_HEARTBEAT_MS } from '@gatecheck/contract';
import { useEffect } from 'react';
import { reportDeviceStatus } from '@/features/devices/device-self.ts';
import { openOfflineDb } from '@/features/scanner/offline/offline-db.ts';
import { summarizeOutbox } from '@/features/scanner/offline/outbox.ts';

/** Scans waiting in this device's outbox, of any user; 0 without IndexedDB. */
async function scansWaiting(): Promise<number> {
  const db = await openOfflineDb().catch(() => null);
  if (!db) return 0;
  const summary = await summarizeOutbox(db, '');
  return summary.waitingScanIds.length;
}

export default function DeviceHeartbeat() {
  useEffect(() => {
    const beat = () => void scansWaiting().then(reportDeviceStatus, () => reportDeviceStatus(0));
    beat();
    const timer = setInterval(beat, DEVICE_HEARTBEAT_MS);
    return () => clearInterval(timer);
  }, []);
  return null;
}
