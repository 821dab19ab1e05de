/**
 * The strip of components/offline-indicator.tsx and its probe, in a chunk of its own so the sign-in
 * screen's first load does without them (docs/decisions/098). Shown exactly while the server cannot
 * be reached; while shown it probes GET /api/health at once and then every 5 s (lib/server-probe.ts,
 * shared with the scanner's offline mode); the api-client reports the answer to lib/reachability,
 * which hides the strip.
 */
import { WifiOff } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { watchServer } from '@/lib/server-probe.ts';

/** 'Offline', above the screen, in the flow. */
export default function OfflineStrip() {
  const { t } = useTranslation();
  useEffect(() => watchServer(() => undefined, { probeNow: true }), []);
  return (
    <p data-testid="offline-indicator" data-covers-status-bar data-offline-strip className="flex items-center justify-center gap-1.5 border-b-2 border-amber-500 bg-amber-100 px-3 pt-[calc(var(--safe-top)+0.25rem)] pb-1 text-sm font-bold text-amber-950">
      <WifiOff aria-hidden="true" className="size-4" />
      {t('common.offline')}
    </p>
  );
}
