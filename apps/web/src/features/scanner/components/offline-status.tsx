import { CloudOff, RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button.tsx';
import { activeLanguage, t } from '@/lib/i18n/index.ts';
import type { OutboxItem } from '../offline/outbox.ts';
import type { OfflineDoor } from '../offline/use-offline-door.ts';
import { recentScanTime } from '../recent-scans.ts';
import { denialReasonWords } from '@/lib/denial-text.ts';
import { useDeviceStorageKeeping } from '@/lib/persistent-storage.ts';
import { formatClockTime, resultCodeText } from '../scanner-logic.ts';

/**
 * The scanner's offline line (issue 12 items 2–4): 'Last synced HH:MM' (the device's locale time) of
 * the day's door list, how many scans wait to be sent (and, apart, how many other staff members left
 * on this device, decisions 076 and 077), 'Sync now', 'Offline mode' while the device
 * decides on its own, a note when a damaged download was discarded, a note while scans wait when
 * the browser may clear its storage (decision 095), and the scans the server would not take with
 * its reason (each can be dismissed once read).
 */
export function OfflineStatus({ door }: { door: OfflineDoor }) {
  const { t } = useTranslation();
  const syncedTime = door.lastSyncedAt === null ? null : formatClockTime(door.lastSyncedAt);
  const storageKeeping = useDeviceStorageKeeping();
  return (
    <section aria-label={t('offline.region')} className="flex flex-col gap-2 rounded-2xl border border-slate-300 bg-white px-3 py-2 text-base text-slate-900">
      {door.connectivity.mode === 'offline' && (
        <p role="status" className="flex items-center gap-2 font-semibold text-amber-950">
          <CloudOff aria-hidden="true" className="size-5 shrink-0" />
          {t('offline.offlineMode')}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <div className="min-w-0">
          <p data-testid="last-synced">{syncedTime === null ? t('offline.neverSynced') : t('offline.lastSynced', { time: syncedTime })}</p>
          <p data-testid="waiting-count" className={door.waitingCount > 0 ? 'font-semibold' : undefined}>
            {t('offline.waiting', { count: door.waitingCount })}
          </p>
          {door.othersWaitingCount > 0 && <p data-testid="others-waiting-count">{t('offline.othersWaiting', { count: door.othersWaitingCount })}</p>}
          {/* Said only while scans wait: then a browser that may clear its storage could lose them (decision 095). */}
          {storageKeeping === 'may_be_cleared' && door.waitingCount + door.othersWaitingCount > 0 && (
            <p data-testid="storage-may-be-cleared" className="text-sm text-amber-950">
              {t('offline.storageMayBeCleared')}
            </p>
          )}
        </div>
        <Button variant="secondary" onClick={door.syncNow} disabled={door.isSyncing}>
          <RefreshCw aria-hidden="true" className="size-5" />
          {door.isSyncing ? t('offline.syncing') : t('offline.syncNow')}
        </Button>
      </div>
      {door.isListDiscarded && (
        <p role="alert" className="font-semibold text-red-900">
          {t('offline.listDiscarded')}
        </p>
      )}
      {door.setAside.length > 0 && (
        <div>
          <h2 className="font-semibold text-red-900">{t('offline.setAside')}</h2>
          <ul aria-label={t('offline.setAside')} className="divide-y divide-slate-200">
            {door.setAside.map((item) => (
              <li key={item.scanId} className="flex items-center justify-between gap-2 py-1">
                <span className="min-w-0 break-words">
                  {t('offline.setAsideLine', { time: recentScanTime(item.scannedAt), code: resultCodeText(item.code), reason: setAsideReasonText(item.setAside) })}
                </span>
                <Button variant="ghost" onClick={() => door.dismissSetAside(item.scanId)}>
                  {t('offline.dismiss')}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** Our words for the server's reasons to refuse an offline scan that are not denial reasons (decision 050: German never shows the server's English). */
const REJECTION_WORDS = {
  invalid_item: 'offline.rejectedInvalidItem',
  scan_id_taken: 'offline.rejectedScanIdTaken',
  scanned_in_future: 'offline.rejectedInFuture',
  scanned_before_session: 'offline.rejectedBeforeSession',
  unknown_staff: 'offline.rejectedUnknownStaff',
  device_moved: 'offline.rejectedDeviceMoved',
} as const;

/**
 * Why the server would not take a scan: in English its message as sent (else the code); in another
 * language our words for its reason (a denial in the result card's words), else the code.
 */
function setAsideReasonText(setAside: OutboxItem['setAside']): string {
  if (!setAside) return '';
  if (activeLanguage() === 'en') return setAside.message || setAside.reason;
  const denial = denialReasonWords(setAside.reason);
  if (denial !== null) return denial;
  return Object.hasOwn(REJECTION_WORDS, setAside.reason) ? t(REJECTION_WORDS[setAside.reason as keyof typeof REJECTION_WORDS]) : setAside.reason;
}
