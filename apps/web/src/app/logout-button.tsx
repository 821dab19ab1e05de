import { LogOut } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { useLogoutMutation } from '@/features/auth/api.ts';
import { useTranslation } from 'react-i18next';

/**
 * 'Logout' (SPEC §2, §4): logs out, clearing the user and every selection whatever the server says.
 * The signed-out session makes the route guard send the visitor to /login; navigating here as well
 * would race the session update and could bounce a still-signed-in /login on to the next step.
 */
export function LogoutButton() {
  const { t } = useTranslation();
  const logout = useLogoutMutation();
  return (
    <Button variant="secondary" disabled={logout.isPending} onClick={() => logout.mutate()}>
      <LogOut aria-hidden="true" className="size-5" />
      {t('account.logout')}
    </Button>
  );
}
