/**
 * The app's tree above the router: React's strict mode and the providers (providers.tsx). One
 * definition for the browser (start-app.tsx, on the browser's history) and the build's prerender of
 * the sign-in screen (prerender.tsx, at a fixed path), so the HTML hydrated is the HTML React renders.
 */
import { StrictMode, type ReactNode } from 'react';
import type { SessionStore } from '@/features/auth/session-store.ts';
import type { QueryClientSlot } from '@/lib/query-client-slot.ts';
import { AppProviders } from './providers.tsx';

/** `router` (a `<BrowserRouter>` or `<StaticRouter>` around the routes) under the providers. */
export function App({ session, queryClient, router }: { session: SessionStore; queryClient: QueryClientSlot; router: ReactNode }) {
  return (
    <StrictMode>
      <AppProviders session={session} queryClient={queryClient}>
        {router}
      </AppProviders>
    </StrictMode>
  );
}
