/**
 * The routes of SPEC §2, plus the account screens the issue added (docs/decisions/018): forgot
 * password, the mailed link's reset screen and sign-up are open; change password sits behind the
 * guard. `/` redirects to /login; a screen that crashes renders `RouteError` instead of a blank page;
 * the root dismisses the toasts of a screen once another is shown.
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { RequireAuth } from './require-auth.tsx';
import { ScreenToasts } from './screen-toasts.tsx';
import { DaySelectRoute } from './routes/day-select-route.tsx';
import { EventSelectRoute } from './routes/event-select-route.tsx';
import { LoginRoute } from './routes/login-route.tsx';
import { NotFoundRoute } from './routes/not-found-route.tsx';
import { OrganizationSelectRoute } from './routes/organization-select-route.tsx';
import { RouteError } from './routes/route-error.tsx';
import { ScannerRoute } from './routes/scanner-route.tsx';
import { ChangePasswordRoute } from './routes/change-password-route.tsx';
import { ForgotPasswordRoute } from './routes/forgot-password-route.tsx';
import { ResetPasswordRoute } from './routes/reset-password-route.tsx';
import { SignUpRoute } from './routes/sign-up-route.tsx';
import { SupervisorRoute } from './routes/supervisor-route.tsx';

export const routes: RouteObject[] = [
  {
    element: <ScreenToasts />,
    errorElement: <RouteError />,
    children: [
      { path: paths.home, element: <Navigate to={paths.login} replace /> },
      { path: paths.login, element: <LoginRoute /> },
      { path: paths.forgotPassword, element: <ForgotPasswordRoute /> },
      { path: paths.resetPassword, element: <ResetPasswordRoute /> },
      { path: paths.signUp, element: <SignUpRoute /> },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.organizationSelect, element: <OrganizationSelectRoute /> },
          { path: paths.eventSelect, element: <EventSelectRoute /> },
          { path: paths.daySelect, element: <DaySelectRoute /> },
          { path: paths.scanner, element: <ScannerRoute /> },
          { path: paths.changePassword, element: <ChangePasswordRoute /> },
          { path: paths.supervisor, element: <SupervisorRoute /> },
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
