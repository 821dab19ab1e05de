/**
 * TanStack Query for the screens that use it (every screen but sign-in; docs/decisions/098): loaded
 * with each lazy screen's code (router.tsx), never on the sign-in screen's first load. Each such
 * screen renders under `WithQueryClient`, which provides the app's one client (the same for every
 * screen, so the cache lives on between screens) and waits for it to load the first time.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { use, type ReactNode } from 'react';
import { useQueryClientSlot } from '@/lib/query-client-slot.ts';

/** `children` with the app's query client; suspends (the root's 'Loading...') until it has loaded. */
export function WithQueryClient({ children }: { children: ReactNode }) {
  const slot = useQueryClientSlot();
  const client = slot.current ?? use(slot.load());
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
