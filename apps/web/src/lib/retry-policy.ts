/**
 * SPEC §9's retry policy, apart from the query client (lib/query-client.ts) so a call outside the
 * query cache (the sign-in screen's, docs/decisions/098) follows it without bringing TanStack Query:
 * 3 retries with exponential backoff (1 s, 2 s, 4 s …) capped at 30 s, never for a 4xx answer,
 * which a retry cannot fix.
 */
import { QUERY_RETRIES, RETRY_BASE_DELAY_MS, RETRY_DELAY_CAP_MS } from '@/config/constants.ts';
import { ApiError } from './api-client.ts';

/** True when `failureCount` earlier failures and `error` still warrant another attempt (SPEC §9). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < QUERY_RETRIES;
}

/** Delay before retry number `attemptIndex` (0-based), in ms: 1 s doubling, capped at 30 s (SPEC §9). */
export function retryDelay(attemptIndex: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** attemptIndex, RETRY_DELAY_CAP_MS);
}

/**
 * Runs `call` until it succeeds, retrying as SPEC §9 says (as a query of the query client would).
 * @throws whatever the last attempt threw, or at once once `signal` is aborted
 */
export async function withRetries<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let failureCount = 0; ; failureCount += 1) {
    try {
      return await call();
    } catch (error) {
      if (signal.aborted || !shouldRetry(failureCount, error)) throw error;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, retryDelay(failureCount));
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      });
      if (signal.aborted) throw error;
    }
  }
}
