/**
 * The server saying a session has ended (a 401 `unauthenticated`), from whichever call heard it
 * first. The one HTTP client reports it; the session (app/session-provider.tsx) listens and signs
 * out with 'Session expired' (SPEC §8). Calls outside TanStack Query — the offline outbox, the door
 * list, the signing keys — would otherwise keep a dead session on screen until the next query
 * failed (up to 30 s, the counts' refresh).
 */
const listeners = new Set<() => void>();

/** Called by the api-client for a 401 `unauthenticated` answer. */
export function reportSessionEnded(): void {
  for (const listener of listeners) listener();
}

/**
 * Calls `listener` whenever a call is answered 401 `unauthenticated`.
 * @returns stops listening.
 */
export function onSessionEnded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
