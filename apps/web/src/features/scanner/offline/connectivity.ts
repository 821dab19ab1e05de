/**
 * When the scanner decides on the device (issue 12 item 3, docs/decisions/052), as plain data.
 *
 * - online (the default, SPEC §7): every scan goes to POST tickets/verify. A verify that gets no
 *   answer within `VERIFY_TIMEOUT_MS` (or fails without an answer) is one failure, and that scan is
 *   decided on the device; `OFFLINE_AFTER_FAILURES` failures in a row switch to offline mode.
 * - offline: scans are decided on the device at once, with no verify call; a probe of the server
 *   every `OFFLINE_PROBE_INTERVAL_MS` (config/constants.ts) switches back to online when it answers. Any answer of the server
 *   (a verify, a probe, a door list) counts as "back".
 *
 * The browser saying it is offline (`navigator.onLine === false`) decides at once too, without
 * counting as a failure. An error *answer* (4xx/5xx) is not a failure of the network: SPEC §8's
 * 'Verification Error' stays for it.
 */

/** A verify with no answer after this many ms is decided on the device (issue 12 item 3). */
export const VERIFY_TIMEOUT_MS = 3_000;
/** Failures in a row after which the scanner decides on the device at once (issue 12 item 3). */
export const OFFLINE_AFTER_FAILURES = 2;

export interface Connectivity {
  mode: 'online' | 'offline';
  /** Verifies in a row that got no answer. */
  failures: number;
}

export const initialConnectivity: Connectivity = { mode: 'online', failures: 0 };

export type ConnectivityEvent = { type: 'verifyFailed' } | { type: 'serverAnswered' };

/** The next state. Pure. */
export function connectivityReducer(state: Connectivity, event: ConnectivityEvent): Connectivity {
  switch (event.type) {
    case 'verifyFailed': {
      const failures = state.failures + 1;
      return { mode: failures >= OFFLINE_AFTER_FAILURES ? 'offline' : state.mode, failures };
    }
    case 'serverAnswered':
      return initialConnectivity;
  }
}

/** Whether a scan is decided on the device without asking the server first. */
export function decidesLocally(state: Connectivity, isBrowserOnline: boolean): boolean {
  return state.mode === 'offline' || !isBrowserOnline;
}
