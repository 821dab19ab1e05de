/**
 * /forgot-password (docs/decisions/018; not a SPEC §2 route): asks for the account's email and sends
 * the reset link (SPEC §7 forgot-password). Texts per SPEC §8: 'Reset link sent', else the response
 * text, else 'Failed to send reset email.' / 'Unable to send reset email.'
 */
import { useRef, useState, type FormEvent } from 'react';
import { CenteredCard } from '@/components/centered-card.tsx';
import { FormField } from '@/components/form-field.tsx';
import { FormNotice } from '@/components/form-notice.tsx';
import { TextLink } from '@/components/text-link.tsx';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { useForgotPasswordMutation } from '@/features/auth/account-api.ts';
import { useTranslation } from 'react-i18next';

export function ForgotPasswordRoute() {
  const { t } = useTranslation();
  const forgot = useForgotPasswordMutation();
  const [email, setEmail] = useState('');
  const outcome = forgot.data;

  // A double tap submits twice before the disabled button is drawn: one e-mail per request.
  const isSendingRef = useRef(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSendingRef.current) return;
    isSendingRef.current = true;
    forgot.mutate(email.trim(), {
      onSettled: () => {
        isSendingRef.current = false;
      },
    });
  };

  return (
    <CenteredCard title={t('accountScreens.forgotTitle')} subtitle={t('accountScreens.forgotSubtitle')}>
      {outcome?.success ? (
        <FormNotice variant="success" title={outcome.message}>
          {t('accountScreens.resetSentDetail', { email: email.trim() })}
        </FormNotice>
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-5">
          <FormField
            id="forgot-email"
            label={t('accountScreens.email')}
            type="email"
            name="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          {outcome && <FormNotice variant="error" title={outcome.message} />}
          <Button type="submit" size="large" disabled={forgot.isPending}>
            {forgot.isPending ? t('accountScreens.sending') : t('accountScreens.sendLink')}
          </Button>
        </form>
      )}
      <TextLink to={paths.login}>{t('accountScreens.backToSignIn')}</TextLink>
    </CenteredCard>
  );
}
