/**
 * The route guard of SPEC §2/§6: 'Loading...' full-screen while the session is checked; visitors who
 * are not signed in go to `redirectTo` (default /login).
 */
import { Navigate, Outlet } from 'react-router';
import { FullScreenMessage } from '@/components/full-screen-message.tsx';
import { paths } from '@/config/paths.ts';
import { useSession } from './session-provider.tsx';
import { useTranslation } from 'react-i18next';

export function RequireAuth({ redirectTo = paths.login }: { redirectTo?: string }) {
  const { t } = useTranslation();
  const session = useSession();
  if (session.status === 'loading') return <FullScreenMessage>{t('common.loading')}</FullScreenMessage>;
  if (session.status === 'unauthenticated') return <Navigate to={redirectTo} replace />;
  return <Outlet />;
}
