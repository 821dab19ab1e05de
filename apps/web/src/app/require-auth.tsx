/**
 * The route guard of SPEC §2/§6: 'Loading...' full-screen while the session is checked; visitors who
 * are not signed in go to `redirectTo` (default /login). Once the user is signed in, the screens of
 * the main job and the QR decoder are prefetched (issue 13 item 2, lazy-screens.ts), and on every
 * screen but the scanner the offline outbox is sent (app/outbox-sender.tsx, issue 12). A door device
 * first asks whoever holds it for their name (app/shift-start.tsx) and reports its state every
 * minute (app/device-heartbeat.tsx, docs/decisions/116).
 */
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullScreenMessage } from '@/components/full-screen-message.tsx';
import { paths } from '@/config/paths.ts';
import { useQueryClientSlot } from '@/lib/query-client-slot.ts';
import { preloadQueryLayer, prefetchSignedInScreens, withQueryLayer } from './lazy-screens.ts';
import { useSession } from './session-provider.tsx';
import { useTranslation } from 'react-i18next';

/** Sends offline scans from the screens around the scanner (app/outbox-sender.tsx), loaded after sign-in. */
const OutboxSender = lazy(() => withQueryLayer(() => import('./outbox-sender.tsx').then((module) => module.default)));
/** A door device's 'Who is scanning?' (app/shift-start.tsx), before any screen while it has no shift. */
const ShiftStart = lazy(() => withQueryLayer(() => import('./shift-start.tsx').then((module) => module.default)));
/** A door device's state reports (app/device-heartbeat.tsx). */
const DeviceHeartbeat = lazy(() => withQueryLayer(() => import('./device-heartbeat.tsx').then((module) => module.default)));

export function RequireAuth({ redirectTo = paths.login }: { redirectTo?: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const { pathname } = useLocation();
  const queryClient = useQueryClientSlot();
  const isSignedIn = session.status === 'authenticated';
  useEffect(() => {
    if (!isSignedIn) return;
    preloadQueryLayer(queryClient);
    prefetchSignedInScreens();
  }, [isSignedIn, queryClient]);
  if (session.status === 'loading') return <FullScreenMessage>{t('common.loading')}</FullScreenMessage>;
  if (session.status === 'unauthenticated') return <Navigate to={redirectTo} replace />;
  const device = session.user.device;
  return (
    <>
      {device && !device.shiftName ? <ShiftStart /> : <Outlet />}
      {device && (
        <Suspense fallback={null}>
          <DeviceHeartbeat />
        </Suspense>
      )}
      {/* The scanner sends its own outbox (use-offline-door.ts); every other signed-in screen sends it here. */}
      {pathname !== paths.scanner && (
        <Suspense fallback={null}>
          <OutboxSender />
        </Suspense>
      )}
    </>
  );
}
