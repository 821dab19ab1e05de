/**
 * /enroll#token=… (docs/decisions/107; not a SPEC §2 route): the screen an organizer's enrollment
 * link or QR code opens. One tap ('Set up this device') redeems the one-time token: the device is
 * then signed in with its own credential, no password, and goes on to choose its event's day. A
 * tap, not an automatic redeem, so a link preview that runs the page cannot use up the token. The
 * native app comes here from the Server field with the pasted link (router state `link`).
 */
import { useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { CenteredCard } from '@/components/centered-card.tsx';
import { FormNotice } from '@/components/form-notice.tsx';
import { TextLink } from '@/components/text-link.tsx';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { furthestStep } from '@/features/auth/auth-logic.ts';
import { EnrollmentProblem, useEnrollMutation } from '@/features/auth/enroll-api.ts';
import { ApiError } from '@/lib/api-client.ts';
import { activeLanguage } from '@/lib/i18n/index.ts';
import { useSelection } from '@/lib/selection.ts';
import { useSessionStore } from '../session-provider.tsx';
import { useTranslation } from 'react-i18next';

/** The link to redeem: handed over by the login screen, else this page's own address. */
function linkOf(state: unknown, href: string): string {
  const handed = (state as { link?: unknown } | null)?.link;
  return typeof handed === 'string' ? handed : href;
}

export function EnrollRoute() {
  const { t } = useTranslation();
  const location = useLocation();
  const selection = useSelection();
  const enroll = useEnrollMutation(useSessionStore());
  const [link] = useState(() => linkOf(location.state, `${window.location.origin}${location.pathname}${location.hash}`));

  if (enroll.isSuccess) return <Navigate to={furthestStep(selection)} replace />;

  const error = enroll.error;
  let problem: string | null = null;
  if (error instanceof EnrollmentProblem) problem = error.message === 'invalid_link' ? t('enroll.invalidLink') : error.message;
  // The server's words say which (used, expired, not valid) in English; other languages: ours.
  else if (error instanceof ApiError && error.status === 400 && error.code === 'bad_request') problem = activeLanguage() === 'en' ? error.message : t('enroll.refused');
  else if (error) problem = t('enroll.failed');

  return (
    <CenteredCard title={t('enroll.title')}>
      <p className="text-base text-slate-700">{t('enroll.explanation')}</p>
      {problem && <FormNotice variant="error" title={problem} />}
      <Button size="large" disabled={enroll.isPending} onClick={() => enroll.mutate(link)}>
        {enroll.isPending ? t('enroll.settingUp') : t('enroll.setUp')}
      </Button>
      <TextLink to={paths.login}>{t('enroll.signInInstead')}</TextLink>
    </CenteredCard>
  );
}
