import { LogOut } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { useLogoutMutation } from '@/features/auth/api.ts';

/** 'Logout': logs out (SPEC §4: clears the user and every selection) and goes to /login. */
export function LogoutButton() {
  const navigate = useNavigate();
  const logout = useLogoutMutation();
  return (
    <Button
      variant="secondary"
      disabled={logout.isPending}
      onClick={() => logout.mutate(undefined, { onSettled: () => void navigate(paths.login, { replace: true }) })}
    >
      <LogOut aria-hidden="true" className="size-5" />
      Logout
    </Button>
  );
}
