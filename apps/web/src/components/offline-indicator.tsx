/**
 * The plain 'Offline' indicator (issue 12 item 1): a strip above every screen while the Gatecheck server
 * cannot be reached (`lib/reachability.ts`: the last call got no answer). While it shows, the
 * server is probed with GET /api/health every `OFFLINE_PROBE_INTERVAL_MS` (5 s); the first answer
 * turns it off (and, through the session provider, confirms an offline start's session).
 *
 * The strip and its probe (./offline-strip.tsx) are a chunk of their own, off the sign-in screen's
 * first load (docs/decisions/098); the indicator loads it as soon as it is shown, while the server is
 * still there, so the strip never waits for a network that has gone.
 */
import { lazy, Suspense, useEffect } from 'react';
import { useIsServerUnreachable } from '@/lib/reachability.ts';

const loadOfflineStrip = () => import('./offline-strip.tsx');
const OfflineStrip = lazy(loadOfflineStrip);

export function OfflineIndicator() {
  const isUnreachable = useIsServerUnreachable();
  useEffect(() => {
    void loadOfflineStrip().catch(() => undefined);
  }, []);
  return (
    // A polite live region (not role=status: the screens' own status lines keep that role to
    // themselves). Offline, a strip above the screen, in the flow, so it covers nothing of it.
    <div aria-live="polite" className="sticky top-0 z-40">
      {isUnreachable && (
        <Suspense fallback={null}>
          <OfflineStrip />
        </Suspense>
      )}
    </div>
  );
}
