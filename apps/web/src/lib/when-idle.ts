/** How long `whenIdle` waits for the browser to be idle at most, in ms. */
export const IDLE_WAIT_LIMIT_MS = 2000;

/**
 * Runs `work` once the browser is idle (at most `IDLE_WAIT_LIMIT_MS` later), so work nobody waits
 * for (a preload, a prefetch) never competes with the render of the screen staff are looking at;
 * after a quarter of that wait where `requestIdleCallback` is missing (Safari, iOS WebView).
 * Returns a function that cancels `work` if it has not run yet.
 */
export function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work, { timeout: IDLE_WAIT_LIMIT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, IDLE_WAIT_LIMIT_MS / 4);
  return () => clearTimeout(timer);
}
