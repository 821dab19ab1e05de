import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { recordUpload } from '@/features/scanner/recent-scans-query.ts';
import { sendBeforeLogout } from '@/features/scanner/offline/send-before-logout.ts';
import { useTranslation } from 'react-i18next';
import { useSession, useSessionStore } from './session-provider.tsx';

/**
 * 'Logout' (SPEC §2, §4): logs out, clearing the user and every selection whatever the server says.
 * The signed-out session makes the route guard send the visitor to /login; navigating here as well
 * would race the session update and could bounce a still-signed-in /login on to the next step.
 *
 * Not in SPEC (docs/decisions/076, 077): first the scans still queued offline on this device are
 * sent; if some of this user's cannot be sent (no server), a dialog says how many and offers to stay
 * signed in, because after a logout they wait on the device until someone of the team signs in there.
 */
export function LogoutButton() {
  const { t } = useTranslation();
  const { user } = useSession();
  // Whatever the server says, the session becomes signed out (features/auth/session-store.ts).
  const sessionStore = useSessionStore();
  const logout = useMutation({ mutationFn: () => sessionStore.signOut() });
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const [unsent, setUnsent] = useState(0);

  const onLogout = async () => {
    setSending(true);
    const waiting = user ? await sendBeforeLogout(user.id, { onUploaded: (outcome) => recordUpload(queryClient, outcome) }) : 0;
    setSending(false);
    if (waiting === 0) logout.mutate();
    else setUnsent(waiting);
  };

  return (
    <>
      <Button variant="secondary" disabled={logout.isPending || sending} aria-busy={sending || undefined} onClick={() => void onLogout()}>
        <LogOut aria-hidden="true" className="size-5" />
        {/* Up to 5 s on a bad door network: say what the wait is for. */}
        {sending ? t('account.sendingScans') : t('account.logout')}
      </Button>
      <ConfirmDialog
        open={unsent > 0}
        onOpenChange={(open) => {
          if (!open) setUnsent(0);
        }}
        title={t('account.unsentTitle')}
        description={t('account.unsentDescription', { count: unsent })}
        cancelLabel={t('account.staySignedIn')}
        confirmLabel={t('account.logoutAnyway')}
        onConfirm={() => {
          setUnsent(0);
          logout.mutate();
        }}
      />
    </>
  );
}
