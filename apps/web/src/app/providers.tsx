/**
 * App-wide providers: server-state cache (SPEC §9 policy), tooltips (SPEC §9 700 ms delay), the
 * session (SPEC §4) and the toaster.
 */
import * as Tooltip from '@radix-ui/react-tooltip';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { TOOLTIP_DELAY_MS } from '@/config/constants.ts';
import { useTheme } from '@/lib/theme.ts';
import { SessionProvider } from './session-provider.tsx';

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  const theme = useTheme();
  return (
    <QueryClientProvider client={queryClient}>
      <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS}>
        <SessionProvider>{children}</SessionProvider>
        {/* Bottom, at most two stacked: a toast never covers the header or the verdict (issue 15 item 14, decision 028). */}
        <Toaster theme={theme} position="bottom-center" visibleToasts={2} richColors closeButton />
      </Tooltip.Provider>
    </QueryClientProvider>
  );
}
