/**
 * Whether the Gatecheck server can be reached right now (issue 12 item 1: the plain 'Offline'
 * indicator). An external store fed by the one HTTP client: a call that got no answer at all
 * (network failure, connection refused, timeout) or a gateway's 502/503/504 marks the server
 * unreachable; any other answer, even an error status, marks it reachable. The browser's own `offline` event marks it unreachable at once;
 * its `online` event proves nothing about the server, so only the next answer turns the indicator off
 * (the indicator probes GET /api/health while it shows).
 *
 * Not the scanner's offline mode (which decides tickets from the door list): this is only what the
 * screens show and when the session is confirmed again (docs/decisions/056).
 */
import { useSyncExternalStore } from 'react';

let isUnreachable = false;
const listeners = new Set<() => void>();

function publish(next: boolean): void {
  if (next === isUnreachable) return;
  isUnreachable = next;
  for (const listener of listeners) listener();
}

/** Called by the api-client when a call got an answer (any HTTP status). */
export function reportServerAnswered(): void {
  publish(false);
}

/** Called by the api-client when a call got no answer (not when the caller aborted it). */
export function reportServerUnreachable(): void {
  publish(true);
}

/** True while the last call got no answer (or the browser said it went offline since). */
export function isServerUnreachable(): boolean {
  return isUnreachable;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `isServerUnreachable()` in a component; re-renders when it changes. */
export function useIsServerUnreachable(): boolean {
  return useSyncExternalStore(subscribe, isServerUnreachable, isServerUnreachable);
}

if (typeof window !== 'undefined') {
  window.addEventListener('offline', reportServerUnreachable);
}
