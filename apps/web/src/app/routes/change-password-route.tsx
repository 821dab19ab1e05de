/**
 * /change-password (docs/decisions/018; a signed-in screen, not a SPEC §2 route), reached from the
 * 'Change password' link next to Logout. SPEC §7 change-password; texts per SPEC §8: 'Password
 * changed successfully', else the server's message, else 'Failed to change password'. Back returns
 * to the furthest step already chosen. A door device has no password (docs/decisions/116): it is
 * sent on to its furthest step.
 */
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { FormField } from '@/components/form-field.tsx';
import { FormNotice } from '@/components/form-notice.tsx';
import { NewPasswordFields } from '@/components/new-password-fields.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useChangePasswordMutation } from '@/features/auth/account-api.ts';
import { validateNewPassword } from '@/features/auth/account-rules.ts';
import { furthestStep } from '@/features/auth/auth-logic.ts';
import { useSelection } from '@/lib/selection.ts';
import { useTranslation } from 'react-i18next';
import { useSession } from '../session-provider.tsx';

export function ChangePasswordRoute() {
  const { user } = useSession();
  const selection = useSelection();
  if (user?.device) return <Navigate to={furthestStep(selection)} replace />;
  return <ChangePassword />;
}

function ChangePassword() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const selection = useSelection();
  const change = useChangePasswordMutation();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const outcome = change.data;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = currentPassword === '' ? t('accountScreens.enterCurrent') : validateNewPassword(newPassword, confirmation);
    setProblem(found);
    if (!found) change.mutate({ currentPassword, newPassword });
  };

  const failure = problem ?? (outcome && !outcome.success ? outcome.message : null);
  return (
    <PageShell title={t('account.changePassword')} onBack={() => void navigate(furthestStep(selection))}>
      {outcome?.success ? (
        <FormNotice variant="success" title={outcome.message}>
          {t('accountScreens.otherDevicesSignedOut')}
        </FormNotice>
      ) : (
        <form noValidate onSubmit={submit} className="flex flex-col gap-5">
          <FormField
            id="change-current-password"
            label={t('accountScreens.currentPassword')}
            type="password"
            name="current-password"
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.target.value)}
          />
          <NewPasswordFields
            idPrefix="change"
            newPassword={newPassword}
            confirmation={confirmation}
            onNewPasswordChange={setNewPassword}
            onConfirmationChange={setConfirmation}
          />
          {failure && <FormNotice variant="error" title={failure} />}
          <Button type="submit" size="large" disabled={change.isPending}>
            {change.isPending ? t('accountScreens.changing') : t('account.changePassword')}
          </Button>
        </form>
      )}
    </PageShell>
  );
}
