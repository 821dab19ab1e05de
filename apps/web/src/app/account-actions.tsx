import { KeyRound } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClassName } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { LogoutButton } from './logout-button.tsx';
import { useTranslation } from 'react-i18next';

/**
 * The signed-in header's account controls: 'Change password' (docs/decisions/018), where a steward
 * looks for account things, next to 'Logout' (SPEC §2).
 */
export function AccountActions() {
  const { t } = useTranslation();
  return (
    <>
      {/* Short on screen so it fits beside Logout on a phone (the key icon only from 380 px: German's
          'Abmelden' is wider than 'Logout'); the name holds the visible word. */}
      <Link to={paths.changePassword} aria-label={t('account.changePassword')} className={buttonClassName({ variant: 'secondary' }, 'whitespace-nowrap')}>
        <KeyRound aria-hidden="true" className="size-5 max-[379px]:hidden" />
        {t('account.password')}
      </Link>
      <LogoutButton />
    </>
  );
}
