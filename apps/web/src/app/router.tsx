/**
 * The routes of SPEC §2. `/` redirects to /login; signed-in screens sit behind the guard; a screen
 * that crashes renders `RouteError` instead of a blank page.
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { RequireAuth } from './require-auth.tsx';
import { DaySelectRoute } from './routes/day-select-route.tsx';
import { EventSelectRoute } from './routes/event-select-route.tsx';
import { LoginRoute } from './routes/login-route.tsx';
import { NotFoundRoute } from './routes/not-found-route.tsx';
import { OrganizationSelectRoute } from './routes/organization-select-route.tsx';
import { RouteError } from './routes/route-error.tsx';
import { ScannerRoute } from './routes/scanner-route.tsx';

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { path: paths.home, element: <Navigate to={paths.login} replace /> },
      { path: paths.login, element: <LoginRoute /> },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.organizationSelect, element: <OrganizationSelectRoute /> },
          { path: paths.eventSelect, element: <EventSelectRoute /> },
          { path: paths.daySelect, element: <DaySelectRoute /> },
          { path: paths.scanner, element: <ScannerRoute /> },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

/** The browser router of the app. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
