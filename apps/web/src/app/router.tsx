/**
 * The routes of SPEC §2, plus the account screens the issue added (docs/decisions/018): forgot
 * password, the mailed link's reset screen and sign-up are open; change password sits behind the
 * guard. `/` redirects to /login; a screen that crashes renders `RouteError` instead of a blank page;
 * the root dismisses the toasts of a screen once another is shown. Every screen but sign-in is a
 * lazy route (see lazy-screens.ts).
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { RequireAuth } from './require-auth.tsx';
import { ScreenToasts } from './screen-toasts.tsx';
import { LoginRoute } from './routes/login-route.tsx';
import { lazyScreens } from './lazy-screens.ts';
import { RouteError } from './routes/route-error.tsx';

export const routes: RouteObject[] = [
  {
    element: <ScreenToasts />,
    errorElement: <RouteError />,
    children: [
      { path: paths.home, element: <Navigate to={paths.login} replace /> },
      { path: paths.login, element: <LoginRoute /> },
      { path: paths.forgotPassword, lazy: { Component: lazyScreens.forgotPassword } },
      { path: paths.resetPassword, lazy: { Component: lazyScreens.resetPassword } },
      { path: paths.signUp, lazy: { Component: lazyScreens.signUp } },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.organizationSelect, lazy: { Component: lazyScreens.organizationSelect } },
          { path: paths.eventSelect, lazy: { Component: lazyScreens.eventSelect } },
          { path: paths.daySelect, lazy: { Component: lazyScreens.daySelect } },
          { path: paths.scanner, lazy: { Component: lazyScreens.scanner } },
          { path: paths.changePassword, lazy: { Component: lazyScreens.changePassword } },
          { path: paths.supervisor, lazy: { Component: lazyScreens.supervisor } },
        ],
      },
      { path: '*', lazy: { Component: lazyScreens.notFound } },
    ],
  },
];

/** The browser router of the app. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
