/**
 * The server refusing a call for the check-in list it names (a 400 naming `checkInListId`), from
 * whichever call heard it. For a door device it means its organizer moved it to another list
 * (docs/decisions/129): the device's heartbeat (app/device-heartbeat.tsx) listens and asks where it
 * scans now at once, instead of at its next beat a minute later.
 */
const listeners = new Set<() => void>();

/** Called by the api-client for a 400 answer naming the field `checkInListId`. */
export function reportListRefused(): void {
  for (const listener of listeners) listener();
}

/**
 * Calls `listener` whenever a call is refused for the check-in list it names.
 * @returns stops listening.
 */
export function onListRefused(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
