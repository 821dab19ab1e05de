/**
 * Whether the server the app talks to speaks a contract this app understands (docs/decisions/094).
 * An external store fed by the one HTTP client: every answer's `Gatecheck-Api-Version` and
 * `Gatecheck-Oldest-App-Api-Version` headers (packages/contract api-version.ts) are compared with the
 * app's own `API_VERSION`. A server too old for the app, or an app too old for the server, shows a
 * plain strip on every screen (components/api-version-notice.tsx) instead of failing later on an
 * answer the app cannot read.
 *
 * An answer without the headers (a server from before them, or a proxy's own error page) says
 * nothing and changes nothing.
 */
import { API_VERSION, API_VERSION_HEADER, apiCompatibility, type ApiCompatibility, OLDEST_APP_API_VERSION_HEADER } from '@gatecheck/contract/api-version';
import { useSyncExternalStore } from 'react';

let compatibility: ApiCompatibility = 'ok';
const listeners = new Set<() => void>();

/** A header's whole positive number, or undefined. */
function versionOf(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)?.trim();
  return value !== undefined && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : undefined;
}

/**
 * How this app fits the server that sent `headers`, or undefined when they say nothing (no version
 * header, or one that is not a whole positive number).
 */
export function compatibilityOf(headers: Headers): ApiCompatibility | undefined {
  const apiVersion = versionOf(headers, API_VERSION_HEADER);
  if (apiVersion === undefined) return undefined;
  // A server that names its version but not the oldest app it serves serves its own version's apps.
  const oldestAppApiVersion = versionOf(headers, OLDEST_APP_API_VERSION_HEADER) ?? apiVersion;
  return apiCompatibility({ apiVersion, oldestAppApiVersion }, API_VERSION);
}

/** Called by the api-client with every answer's headers. */
export function reportServerApiVersion(headers: Headers): void {
  const next = compatibilityOf(headers);
  if (next === undefined || next === compatibility) return;
  compatibility = next;
  for (const listener of listeners) listener();
}

/** How this app fits the server that answered last: 'ok' until a server says otherwise. */
export function currentApiCompatibility(): ApiCompatibility {
  return compatibility;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `currentApiCompatibility()` in a component; re-renders when it changes. */
export function useApiCompatibility(): ApiCompatibility {
  return useSyncExternalStore(subscribe, currentApiCompatibility, currentApiCompatibility);
}

/** Back to 'ok' (tests; a new server chosen on the native login screen is judged by its next answer). */
export function resetApiCompatibility(): void {
  if (compatibility === 'ok') return;
  compatibility = 'ok';
  for (const listener of listeners) listener();
}
