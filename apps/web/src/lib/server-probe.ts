/**
 * The one probe of the Gatecheck server (issue 12): GET /api/health through the api-client, which
 * reports the answer (or its absence) to lib/reachability.ts. The app's 'Offline' strip and the
 * scanner's offline mode both wait for the server to answer again; `watchServer` probes every
 * `OFFLINE_PROBE_INTERVAL_MS` (config/constants.ts) while either of them watches, once for both,
 * so a gate on bad Wi-Fi sends one probe per interval, not one per screen part that waits.
 */
import { HealthResponse } from '@gatecheck/contract/health';
import { apiPaths } from '@gatecheck/contract/paths';
import { OFFLINE_PROBE_INTERVAL_MS } from '@/config/constants.ts';
import { apiRequest } from './api-client.ts';

/** Resolves when the server answers GET /api/health. @throws {ApiError} when it does not (or `signal` aborts). */
export async function probeServer(signal?: AbortSignal): Promise<void> {
  await apiRequest(apiPaths.health, { schema: HealthResponse, signal, token: null });
}

/** Who waits for the server (`watchServer`), each told when a probe gets an answer. */
const watchers = new Set<{ onAnswer: () => void }>();
let timer: ReturnType<typeof setInterval> | null = null;
let isProbing = false;

/** How long one probe may wait for an answer, in ms: less than an interval, so it never holds up the next. */
const PROBE_TIMEOUT_MS = OFFLINE_PROBE_INTERVAL_MS * 0.8;

/**
 * One probe for every watcher, unless one is under way. A connection that never answers (a captive
 * portal, a black hole) is given up after `PROBE_TIMEOUT_MS`. A watcher that throws does not keep
 * the others from hearing the answer.
 */
function probeForWatchers(): void {
  if (isProbing) return;
  isProbing = true;
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  probeServer(controller.signal).then(
    () => {
      clearTimeout(timeout);
      isProbing = false;
      for (const watcher of [...watchers]) {
        try {
          watcher.onAnswer();
        } catch (error) {
          // Reported, not swallowed: a defect of that watcher, not of the probe.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    },
    () => {
      clearTimeout(timeout);
      isProbing = false;
    },
  );
}

/** A page shown again (the app brought back to the front, the phone unlocked) probes at once. */
function probeWhenShown(): void {
  if (document.visibilityState === 'visible') probeForWatchers();
}

/**
 * Probes the server every `OFFLINE_PROBE_INTERVAL_MS` (5 s) while anyone watches, and at once when
 * the browser says it is online again or the page is shown again (a phone throttles the timers of a
 * page in the background, so the 'Offline' strip would otherwise lag), one probe for all watchers, and calls `onAnswer` whenever a
 * probe gets an answer. `probeNow`: also probe at once (unless a probe is under way).
 * @returns stops this watch; the probing stops with the last one.
 */
export function watchServer(onAnswer: () => void, options: { probeNow?: boolean } = {}): () => void {
  const watcher = { onAnswer };
  watchers.add(watcher);
  if (timer === null) {
    timer = setInterval(probeForWatchers, OFFLINE_PROBE_INTERVAL_MS);
    window.addEventListener('online', probeForWatchers);
    document.addEventListener('visibilitychange', probeWhenShown);
  }
  if (options.probeNow) probeForWatchers();
  return () => {
    watchers.delete(watcher);
    if (watchers.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
      window.removeEventListener('online', probeForWatchers);
      document.removeEventListener('visibilitychange', probeWhenShown);
    }
  };
}
