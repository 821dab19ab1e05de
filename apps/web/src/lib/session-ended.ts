/**
 * The server saying a session has ended (a 401 `unauthenticated`), from whichever call heard it
 * first. The one HTTP client reports it for every call — queries, mutations, and those outside
 * TanStack Query (the offline outbox, the door list, the signing keys); the session
 * (app/session-provider.tsx) listens and signs out with 'Session expired' (SPEC §8).
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
