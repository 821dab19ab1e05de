/**
 * The lazily loaded screens (issue 13 item 2, docs/decisions/048) and their prefetch after sign-in.
 * Each entry loads its route module and resolves to the route's component (router.tsx wraps it in
 * `React.lazy`); the bundler makes each a chunk of its own, outside the first load.
 */
import { createElement, type ComponentType } from 'react';
import { loadScreenTexts } from '@/lib/i18n/index.ts';
import { isNativePlatform } from '@/lib/native/platform.ts';
import type { QueryClientSlot } from '@/lib/query-client-slot.ts';
import { whenIdle } from '@/lib/when-idle.ts';

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
  liveDoor: () => import('./routes/live-door-route.tsx').then((module) => module.LiveDoorRoute),
  manage: () => import('./routes/manage-route.tsx').then((module) => module.ManageRoute),
  manageEvent: () => import('./routes/manage-event-route.tsx').then((module) => module.ManageEventRoute),
  manageActivity: () => import('./routes/manage-activity-route.tsx').then((module) => module.ManageActivityRoute),
  manageTickets: () => import('./routes/manage-tickets-route.tsx').then((module) => module.ManageTicketsRoute),
  manageLists: () => import('./routes/manage-lists-route.tsx').then((module) => module.ManageListsRoute),
  manageTeam: () => import('./routes/manage-team-route.tsx').then((module) => module.ManageTeamRoute),
  manageDevices: () => import('./routes/manage-devices-route.tsx').then((module) => module.ManageDevicesRoute),
  manageOrganizationActivity: () => import('./routes/manage-organization-activity-route.tsx').then((module) => module.ManageOrganizationActivityRoute),
  invitation: () => import('./routes/invitation-route.tsx').then((module) => module.InvitationRoute),
  forgotPassword: () => import('./routes/forgot-password-route.tsx').then((module) => module.ForgotPasswordRoute),
  resetPassword: () => import('./routes/reset-password-route.tsx').then((module) => module.ResetPasswordRoute),
  signUp: () => import('./routes/sign-up-route.tsx').then((module) => module.SignUpRoute),
  enroll: () => import('./routes/enroll-route.tsx').then((module) => module.EnrollRoute),
  notFound: () => import('./routes/not-found-route.tsx').then((module) => module.NotFoundRoute),
};

/** The query layer every lazy screen renders under (query-layer.tsx): TanStack Query, off the first load. */
export const loadQueryLayer = () => import('./query-layer.tsx');

/**
 * `load`'s component under the app's query client (query-layer.tsx), as one component whose code,
 * query layer and English texts (lib/i18n `loadScreenTexts`) load together: what `React.lazy` is
 * given for a screen loaded on demand (docs/decisions/098).
 */
export async function withQueryLayer(load: () => Promise<ComponentType>): Promise<{ default: ComponentType }> {
  const [Screen, { WithQueryClient }] = await Promise.all([load(), loadQueryLayer(), loadScreenTexts()]);
  return {
    default: function ScreenWithQueryClient() {
      return createElement(WithQueryClient, null, createElement(Screen));
    },
  };
}

/**
 * Starts loading what every screen after sign-in needs, TanStack Query with the app's query client
 * and the screens' English texts (docs/decisions/098): when a sign-in is sent, when the app starts with a
 * stored user, and once the sign-in screen is idle, so no screen after sign-in waits for it. Returns
 * at once; a failed load is ignored here (the screen loads it again when it is shown).
 */
export function preloadQueryLayer(queryClient: QueryClientSlot): void {
  void Promise.all([loadQueryLayer(), queryClient.load(), loadScreenTexts()]).catch(() => undefined);
}

/**
 * Loads the screens of the main job after sign-in (issue 13 item 2): the three choice screens and
 * the scanner screen's code, then, once the browser is idle, the QR decoder's download (its script
 * and .wasm, not its start: docs/decisions/110), so neither the next screen nor the first 'Start
 * Camera' waits on a slow venue network. Returns at once; safe to call
 * any number of times (the browser keeps each module once). A failed load is ignored here: the
 * route loads again when it is opened and reports a failure on its error screen.
 */
export function prefetchSignedInScreens(): void {
  const loads = [lazyScreens.organizationSelect(), lazyScreens.eventSelect(), lazyScreens.daySelect(), lazyScreens.scanner()];
  void Promise.all(loads)
    // The native app scans with ML Kit: it needs no decoder. The decoder waits for the browser to be
    // idle: the screen being opened (the scanner itself, with a stored session) renders first.
    .then(() => (isNativePlatform() ? undefined : whenIdle(() => void import('@/lib/qr/prefetch-qr-decoder.ts').then(({ prefetchQrDecoder }) => prefetchQrDecoder(), () => undefined))))
    .catch(() => {
      // Opening the screen loads it again (and shows the error screen when that fails too).
    });
}

