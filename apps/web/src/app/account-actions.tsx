import { KeyRound, UserRoundPen } from 'lucide-react';
import { Link } from 'react-router';
import { Button, buttonClassName } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { LogoutButton } from './logout-button.tsx';
import { useSession, useSessionStore } from './session-provider.tsx';
import { useTranslation } from 'react-i18next';

/** A door device's calls, with their schemas: loaded by 'End shift', off the choice screens' first load (docs/decisions/128). */
const loadDeviceSelf = () => import('@/features/devices/device-self.ts');

/**
 * The signed-in header's account controls: 'Change password' (docs/decisions/018), where a steward
 * looks for account things, next to 'Logout' (SPEC §2). A door device has no password and no person
 * to sign out (docs/decisions/116): it shows 'End shift' instead, which asks the next person's name.
 */
export function AccountActions() {
  const { t } = useTranslation();
  const { user } = useSession();
  const session = useSessionStore();
  const device = user?.device;
  if (user && device) {
    return (
      <Button variant="secondary" className="whitespace-nowrap" onClick={() => void loadDeviceSelf().then(({ endShift }) => endShift({ ...user, device })).then((next) => session.switchShift(next))}>
        <UserRoundPen aria-hidden="true" className="size-5 max-[379px]:hidden" />
        {t('account.endShift')}
      </Button>
    );
  }
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
