/**
 * The server saying a session has ended (a 401 `unauthenticated`), from whichever call heard it
 * first. The one HTTP client reports it for every call — queries, mutations, and those outside
 * TanStack Query (the offline outbox, the door list, the signing keys); the session
 * (app/session-provider.tsx) listens and signs out with 'Session expired' (SPEC §8).
 */
/** Why: the session ended, or this door device was removed by its organizer (docs/decisions/108). */
export type SessionEndCode = 'unauthenticated' | 'device_revoked';

const listeners = new Set<(code: SessionEndCode) => void>();

/** Called by the api-client for a 401 `unauthenticated` or `device_revoked` answer. */
export function reportSessionEnded(code: SessionEndCode = 'unauthenticated'): void {
  for (const listener of listeners) listener(code);
}

/**
 * Calls `listener` whenever a call is answered 401 `unauthenticated` or `device_revoked`.
 * @returns stops listening.
 */
export function onSessionEnded(listener: (code: SessionEndCode) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
