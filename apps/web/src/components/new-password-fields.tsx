import { PASSWORD_MIN_LENGTH } from '@gatecheck/contract/sign-in';
import { useTranslation } from 'react-i18next';
import { FormField } from './form-field.tsx';

/**
 * 'New password' (with the length rule as its hint) and 'Confirm password', as the reset and change
 * password screens ask for them (issue 15 item 2). Ids are `${idPrefix}-new-password` and
 * `${idPrefix}-confirm-password`; the screen checks the pair (validateNewPassword).
 */
export function NewPasswordFields({
  idPrefix,
  newPassword,
  confirmation,
  onNewPasswordChange,
  onConfirmationChange,
}: {
  idPrefix: string;
  newPassword: string;
  confirmation: string;
  onNewPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FormField
        id={`${idPrefix}-new-password`}
        label={t('accountScreens.newPassword')}
        type="password"
        name="new-password"
        autoComplete="new-password"
        required
        hint={t('auth.newPasswordRule', { min: PASSWORD_MIN_LENGTH })}
        value={newPassword}
        onChange={(event) => onNewPasswordChange(event.target.value)}
      />
      <FormField
        id={`${idPrefix}-confirm-password`}
        label={t('accountScreens.confirmPassword')}
        type="password"
        name="confirm-password"
        autoComplete="new-password"
        required
        value={confirmation}
        onChange={(event) => onConfirmationChange(event.target.value)}
      />
    </>
  );
}
