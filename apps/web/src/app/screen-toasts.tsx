import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { dismissScreenToasts } from '@/lib/toast.ts';

/**
 * The root of every route: on each screen change, dismisses the toasts of the screen just left,
 * which no longer apply (lib/toast.ts; issue 15 item 7: a stale 'Login failed' after a sign-in).
 */
export function ScreenToasts() {
  const { pathname } = useLocation();
  useEffect(() => dismissScreenToasts(), [pathname]);
  return <Outlet />;
}
