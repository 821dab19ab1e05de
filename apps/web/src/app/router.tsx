/**
 * The routes of SPEC §2, plus the account screens the issue added (docs/decisions/018): forgot
 * password, the mailed link's reset screen and sign-up are open; change password sits behind the
 * guard. `/` redirects to /login; a screen that crashes renders `RouteError` instead of a blank page;
 * the root dismisses the toasts of a screen once another is shown. Every screen but sign-in is a
 * lazy screen (see lazy-screens.ts).
 *
 * React Router in declarative mode (`<BrowserRouter>` + `useRoutes`), not its data router: the app
 * uses no loaders, actions or fetchers, and the data router's code is about 19 kB gzip of the first
 * load (issue 13, docs/decisions/061). Lazy screens are `React.lazy` under one `<Suspense>`, whose
 * fallback says 'Loading...' when a screen's code is slow to arrive (screen-loading.tsx,
 * docs/decisions/075).
 */
import { Component, createElement, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Navigate, useLocation, useRoutes, type RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { RequireAuth } from './require-auth.tsx';
import { ScreenToasts } from './screen-toasts.tsx';
import { LoginRoute } from './routes/login-route.tsx';
import { lazyScreens, withQueryLayer } from './lazy-screens.ts';
import { RouteError } from './routes/route-error.tsx';
import { ScreenLoading } from './screen-loading.tsx';

/** A screen that loads on demand: one of lazy-screens.ts. */
export type LazyScreenName = keyof typeof lazyScreens;

interface ErrorBoundaryProps {
  /** The path shown; a new path (staff went elsewhere) clears a caught error. */
  pathname: string;
  /** Shown instead of `children` once they failed to render. */
  fallback: ReactNode;
  children: ReactNode;
}

/** Catches a render failure (or a lazy screen that cannot be loaded) below it until the path changes. */
class ErrorBoundary extends Component<ErrorBoundaryProps, { hasFailed: boolean; pathname: string }> {
  override state = { hasFailed: false, pathname: this.props.pathname };

  static getDerivedStateFromError(): { hasFailed: boolean } {
    return { hasFailed: true };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: { pathname: string }): { hasFailed: boolean; pathname: string } | null {
    return props.pathname === state.pathname ? null : { hasFailed: false, pathname: props.pathname };
  }

  override render(): ReactNode {
    return this.state.hasFailed ? this.props.fallback : this.props.children;
  }
}

/**
 * Shows `fallback` (default `RouteError`) instead of `children` when they fail to render: a defect,
 * or a screen's code that could not be loaded. Going to another path tries again.
 */
export function ScreenErrorBoundary({ children, fallback = <RouteError /> }: { children: ReactNode; fallback?: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary pathname={pathname} fallback={fallback}>
      {children}
    </ErrorBoundary>
  );
}

/** The root of every route: the error screen, the wait for a lazy screen ('Loading...' if it is slow), screen toasts. */
function AppRoot() {
  return (
    <ScreenErrorBoundary>
      <Suspense fallback={<ScreenLoading />}>
        <ScreenToasts />
      </Suspense>
    </ScreenErrorBoundary>
  );
}

/**
 * The route tree, with `screen(name)` as the element of each lazy screen: `React.lazy` in the app,
 * the loaded component in screen tests (test/render.tsx).
 */
export function createRoutes(screen: (name: LazyScreenName) => ReactNode): RouteObject[] {
  return [
    {
      element: <AppRoot />,
      children: [
        { path: paths.home, element: <Navigate to={paths.login} replace /> },
        { path: paths.login, element: <LoginRoute /> },
        { path: paths.forgotPassword, element: screen('forgotPassword') },
        { path: paths.resetPassword, element: screen('resetPassword') },
        { path: paths.signUp, element: screen('signUp') },
        { path: paths.invitation, element: screen('invitation') },
        { path: paths.enroll, element: screen('enroll') },
        {
          element: <RequireAuth />,
          children: [
            { path: paths.organizationSelect, element: screen('organizationSelect') },
            { path: paths.eventSelect, element: screen('eventSelect') },
            { path: paths.daySelect, element: screen('daySelect') },
            { path: paths.scanner, element: screen('scanner') },
            { path: paths.changePassword, element: screen('changePassword') },
            { path: paths.supervisor, element: screen('supervisor') },
            { path: paths.liveDoor, element: screen('liveDoor') },
            { path: paths.manage, element: screen('manage') },
            { path: paths.manageNewEvent, element: screen('manageEvent') },
            { path: paths.manageEvent, element: screen('manageEvent') },
            { path: paths.manageEventActivity, element: screen('manageActivity') },
            { path: paths.manageEventTickets, element: screen('manageTickets') },
            { path: paths.manageEventLists, element: screen('manageLists') },
            { path: paths.manageTeam, element: screen('manageTeam') },
            { path: paths.manageDevices, element: screen('manageDevices') },
            { path: paths.manageActivity, element: screen('manageOrganizationActivity') },
          ],
        },
        { path: '*', element: screen('notFound') },
      ],
    },
  ];
}

const lazyComponents = new Map<LazyScreenName, ComponentType>();

/**
 * The `React.lazy` element of a lazy screen (one lazy component per screen), under the app's query
 * client: the screen's code and TanStack Query load together (docs/decisions/098).
 */
function lazyScreen(name: LazyScreenName): ReactNode {
  let screen = lazyComponents.get(name);
  if (!screen) {
    screen = lazy(() => withQueryLayer(lazyScreens[name]));
    lazyComponents.set(name, screen);
  }
  return createElement(screen);
}

/** The app's routes: sign-in and the shell eager, every other screen lazy. */
export const routes: RouteObject[] = createRoutes(lazyScreen);

/** Renders the screen of the current path from `routeObjects` (default: the app's routes). */
export function AppRoutes({ routeObjects = routes }: { routeObjects?: RouteObject[] }) {
  return useRoutes(routeObjects);
}

/**
 * The app's router on the browser's history. Its navigations are not React transitions
 * (`useTransitions={false}`): in a transition React keeps the screen left on show, with no sign that
 * the tap was taken, while a slow screen's code arrives; outside one the root's `<Suspense>` says
 * 'Loading...' after 250 ms (docs/decisions/075, 081).
 */
export function AppRouter() {
  return (
    <BrowserRouter useTransitions={false}>
      <AppRoutes />
    </BrowserRouter>
  );
}
