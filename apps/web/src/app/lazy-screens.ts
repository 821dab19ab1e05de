/**
 * The lazily loaded screens (issue 13 item 2, docs/decisions/048) and their prefetch after sign-in.
 * Each entry loads its route module and resolves to the route's component (router.tsx wraps it in
 * `React.lazy`); the bundler makes each a chunk of its own, outside the first load.
 */
import { isNativePlatform } from '@/lib/native/platform.ts';

/**
 * Every screen but sign-in loads on demand (issue 13 item 2, docs/decisions/048): the first load
 * carries only the shell (root, guard, error screen) and /login. Each entry resolves to its
 * route's component; while it loads the root shows 'Loading...' once the wait passes 250 ms
 * (screen-loading.tsx, docs/decisions/075), and a screen never shows half-loaded.
 * `prefetchSignedInScreens` loads the screens that follow sign-in ahead of time, so moving on from
 * /login does not wait for the network.
 */
export const lazyScreens = {
  organizationSelect: () => import('./routes/organization-select-route.tsx').then((module) => module.OrganizationSelectRoute),
  eventSelect: () => import('./routes/event-select-route.tsx').then((module) => module.EventSelectRoute),
  daySelect: () => import('./routes/day-select-route.tsx').then((module) => module.DaySelectRoute),
  scanner: () => import('./routes/scanner-route.tsx').then((module) => module.ScannerRoute),
  changePassword: () => import('./routes/change-password-route.tsx').then((module) => module.ChangePasswordRoute),
  supervisor: () => import('./routes/supervisor-route.tsx').then((module) => module.SupervisorRoute),
  forgotPassword: () => import('./routes/forgot-password-route.tsx').then((module) => module.ForgotPasswordRoute),
  resetPassword: () => import('./routes/reset-password-route.tsx').then((module) => module.ResetPasswordRoute),
  signUp: () => import('./routes/sign-up-route.tsx').then((module) => module.SignUpRoute),
  enroll: () => import('./routes/enroll-route.tsx').then((module) => module.EnrollRoute),
  notFound: () => import('./routes/not-found-route.tsx').then((module) => module.NotFoundRoute),
};

/**
 * Loads the screens of the main job after sign-in (issue 13 item 2): the three choice screens and
 * the scanner screen's code, then the QR decoder (its script and .wasm), so neither the next
 * screen nor the first 'Start Camera' waits on a slow venue network. Returns at once; safe to call
 * any number of times (the browser keeps each module once). A failed load is ignored here: the
 * route loads again when it is opened and reports a failure on its error screen.
 */
export function prefetchSignedInScreens(): void {
  const loads = [lazyScreens.organizationSelect(), lazyScreens.eventSelect(), lazyScreens.daySelect(), lazyScreens.scanner()];
  void Promise.all(loads)
    // The native app scans with ML Kit: it needs no decoder.
    .then(() => (isNativePlatform() ? undefined : import('@/lib/qr/prefetch-qr-decoder.ts').then(({ prefetchQrDecoder }) => prefetchQrDecoder())))
    .catch(() => {
      // Opening the screen loads it again (and shows the error screen when that fails too).
    });
}

