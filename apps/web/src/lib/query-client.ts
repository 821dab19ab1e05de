/**
 * TanStack Query setup (SPEC §9): unused data is discarded after 5 minutes; failed queries are
 * retried 3 times with exponential backoff (1 s, 2 s, 4 s …) capped at 30 s, except 4xx answers,
 * which a retry cannot fix (lib/retry-policy.ts). A query may declare `meta.errorToast`; it is shown once when the query
 * finally fails (SPEC §8 "Organization load failure: toast 'Error' / …").
 *
 * Every query and mutation uses `networkMode: 'always'`: when the browser reports itself offline,
 * calls are still made and fail fast with a network error (SPEC §8 'Verification Error' and the
 * load-failure toasts) instead of being paused by TanStack and silently sent later — a paused ticket
 * check would otherwise freeze the scanner and record a check-in nobody saw once the network is back.
 */
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { QUERY_GC_TIME_MS } from '@/config/constants.ts';
import { retryDelay, shouldRetry } from './retry-policy.ts';
import { notify, type Notice } from './toast.ts';

export { retryDelay, shouldRetry } from './retry-policy.ts';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { errorToast?: Notice };
  }
}

/**
 * A QueryClient with the SPEC §9 policy. `options.retry: false` turns retries off (tests use a fresh
 * client per test with retries off).
 */
export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  const retry = options.retry === false ? false : shouldRetry;
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (_error, query) => {
        const toast = query.meta?.errorToast;
        if (toast) notify({ variant: 'error', ...toast });
      },
    }),
    defaultOptions: {
      queries: { gcTime: QUERY_GC_TIME_MS, retry, retryDelay, networkMode: 'always' },
      mutations: { gcTime: QUERY_GC_TIME_MS, retry: false, networkMode: 'always' },
    },
  });
}
