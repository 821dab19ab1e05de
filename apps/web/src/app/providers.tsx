/**
 * App-wide providers: the session (SPEC §4, features/auth/session-store.ts), the slot of the
 * server-state cache (SPEC §9; TanStack Query itself loads with the screens that use it, app/query-layer.tsx,
 * docs/decisions/098), the toaster and the 'Offline' indicator (issue 12 item 1) and the notice of a
 * server this app cannot speak to (docs/decisions/094). Tooltips bring their own provider
 * (components/ui/tooltip.tsx). The toaster mounts once sonner has loaded, after the first screen is
 * shown (lib/toast.ts, issue 13).
 */
import type { ReactNode } from 'react';
import { ApiVersionNotice } from '@/components/api-version-notice.tsx';
import { OfflineIndicator } from '@/components/offline-indicator.tsx';
import type { SessionStore } from '@/features/auth/session-store.ts';
import { QueryClientSlotContext, type QueryClientSlot } from '@/lib/query-client-slot.ts';
import { useTheme } from '@/lib/theme.ts';
import { TOASTER_PLACEMENT, useToastLibrary } from '@/lib/toast.ts';
import { SessionProvider } from './session-provider.tsx';

export function AppProviders({ session, queryClient, children }: { session: SessionStore; queryClient: QueryClientSlot; children: ReactNode }) {
  const theme = useTheme();
  // sonner loads after the first screen is shown (issue 13, lib/toast.ts).
  const toastLibrary = useToastLibrary();
  return (
    <QueryClientSlotContext value={queryClient}>
      {/* 'Offline' above every screen while the server cannot be reached (issue 12 item 1). */}
      <OfflineIndicator />
      {/* A server too old or too new for this app, said in words (docs/decisions/094). */}
      <ApiVersionNotice />
      <SessionProvider store={session}>{children}</SessionProvider>
      {/* Under the header, at most two stacked: never over the next control staff tap (decision 093). */}
      {toastLibrary && <toastLibrary.Toaster theme={theme} {...TOASTER_PLACEMENT} visibleToasts={2} richColors closeButton />}
    </QueryClientSlotContext>
  );
}
