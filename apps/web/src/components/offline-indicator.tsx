/**
 * The plain 'Offline' indicator (issue 12 item 1): a strip above every screen while the Gatecheck server
 * cannot be reached (`lib/reachability.ts`: the last call got no answer). While it shows, the
 * server is probed with GET /api/health every `OFFLINE_PROBE_INTERVAL_MS` (5 s); the first answer
 * turns it off (and, through the session provider, confirms an offline start's session).
 */
import { WifiOff } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsServerUnreachable } from '@/lib/reachability.ts';
import { watchServer } from '@/lib/server-probe.ts';

/**
 * GET /api/health at once and then every 5 s while offline (lib/server-probe.ts, shared with the
 * scanner's offline mode); the api-client reports the answer to lib/reachability, which hides the strip.
 */
function useServerProbe(isEnabled: boolean): void {
  useEffect(() => (isEnabled ? watchServer(() => undefined, { probeNow: true }) : undefined), [isEnabled]);
}

export function OfflineIndicator() {
  const { t } = useTranslation();
  const isUnreachable = useIsServerUnreachable();
  useServerProbe(isUnreachable);
  return (
    // A polite live region (not role=status: the screens' own status lines keep that role to
    // themselves). Offline, a strip above the screen, in the flow, so it covers nothing of it.
    <div aria-live="polite" className="sticky top-0 z-40">
      {isUnreachable && (
        <p data-testid="offline-indicator" data-covers-status-bar data-offline-strip className="flex items-center justify-center gap-1.5 border-b-2 border-amber-500 bg-amber-100 px-3 pt-[calc(var(--safe-top)+0.25rem)] pb-1 text-sm font-bold text-amber-950">
          <WifiOff aria-hidden="true" className="size-4" />
          {t('common.offline')}
        </p>
      )}
    </div>
  );
}
