/**
 * /reset-password?token=… (docs/decisions/018; not a SPEC §2 route): the screen the mailed reset link
 * opens. A new password twice (the server's policy shown before submit), then SPEC §7 reset-password
 * from our own origin. Texts per SPEC §8: 'Password updated successfully', else the response text
 * (e.g. the link is used or expired), else 'Password reset failed' / 'Unable to reset password'.
 */
import { RESET_PASSWORD_LINK } from '@gatecheck/contract/paths';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CenteredCard } from '@/components/centered-card.tsx';
import { FormNotice } from '@/components/form-notice.tsx';
import { NewPasswordFields } from '@/components/new-password-fields.tsx';
import { TextLink } from '@/components/text-link.tsx';
import { Button, buttonClassName } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { useResetPasswordMutation } from '@/features/auth/account-api.ts';
import { validateNewPassword } from '@/features/auth/account-rules.ts';
import { useTranslation } from 'react-i18next';


export function ResetPasswordRoute() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const token = searchParams.get(RESET_PASSWORD_LINK.tokenParam) ?? '';
  const reset = useResetPasswordMutation();
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const outcome = reset.data;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateNewPassword(newPassword, confirmation);
    setProblem(found);
    if (!found) reset.mutate({ token, newPassword });
  };

  if (outcome?.success) {
    return (
      <CenteredCard title={t('accountScreens.resetTitle')}>
        <FormNotice variant="success" title={outcome.message}>
          {t('accountScreens.resetDone')}
        </FormNotice>
        <Link to={paths.login} className={buttonClassName({ size: 'large' })}>
          {t('accountScreens.signIn')}
        </Link>
      </CenteredCard>
    );
  }

  const hasToken = token !== '';
  const failure = problem ?? (outcome && !outcome.success ? outcome.message : undefined);
  return (
    <CenteredCard title={t('accountScreens.resetTitle')}>
      {hasToken ? (
        <form noValidate onSubmit={submit} className="flex flex-col gap-5">
          <NewPasswordFields
            idPrefix="reset"
            newPassword={newPassword}
            confirmation={confirmation}
            onNewPasswordChange={setNewPassword}
            onConfirmationChange={setConfirmation}
          />
          {failure && <FormNotice variant="error" title={failure} />}
          <Button type="submit" size="large" disabled={reset.isPending}>
            {reset.isPending ? t('accountScreens.updating') : t('accountScreens.updatePassword')}
          </Button>
        </form>
      ) : (
        // The link lost its token (cut off by a mail program, typed by hand).
        <FormNotice variant="error" title={t('accountScreens.incompleteLink')} />
      )}
      {(!hasToken || outcome?.success === false) && <TextLink to={paths.forgotPassword}>{t('accountScreens.askNewLink')}</TextLink>}
      <TextLink to={paths.login}>{t('accountScreens.backToSignIn')}</TextLink>
    </CenteredCard>
  );
}
