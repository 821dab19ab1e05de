/**
 * Which version of this contract an app and a server speak (docs/decisions/094). An installed app
 * (the native app, or a web app kept by the service worker) can meet a server upgraded after it was
 * built, or an older server than it was built for. Each side says its version, and the app compares
 * them before it trusts an answer it cannot parse:
 *
 * - `API_VERSION`: the contract's version, an integer. It goes up only for a change an installed
 *   app would misread (a field removed or renamed, a meaning changed, a required request field
 *   added). Adding a response field, a route or an optional request field does not change it: apps
 *   parse answers keeping what they know and dropping the rest (zod objects strip unknown keys; the
 *   contract test `api-version.test.ts` holds every response schema to that).
 * - `OLDEST_APP_API_VERSION`: the oldest app version this server still answers correctly. Raised
 *   when the server drops a route or field that older apps still read.
 *
 * The server sends both on every answer, in the headers named below (exposed to the phone's origin
 * by CORS), and in the bodies of GET /api/health and GET /api/auth/options. A server from before
 * these headers existed speaks version 1.
 */

/** The version of the contract this code speaks. */
export const API_VERSION = 1;

/** The oldest app (its `API_VERSION`) a server of this code still serves. */
export const OLDEST_APP_API_VERSION = 1;

/** Response header with the server's `API_VERSION`, e.g. `Gatecheck-Api-Version: 1`. */
export const API_VERSION_HEADER = 'Gatecheck-Api-Version';

/** Response header with the server's `OLDEST_APP_API_VERSION`, e.g. `Gatecheck-Oldest-App-Api-Version: 1`. */
export const OLDEST_APP_API_VERSION_HEADER = 'Gatecheck-Oldest-App-Api-Version';

/** What a server without these headers speaks: they came with version 1. */
export const UNANNOUNCED_API_VERSION = 1;

/** How an app and a server fit: 'ok', the server is too old for the app, or the app too old for the server. */
export type ApiCompatibility = 'ok' | 'server_too_old' | 'app_too_old';

/**
 * Whether an app speaking `appApiVersion` can use a server that speaks `server.apiVersion` and
 * serves apps from `server.oldestAppApiVersion` on. Pure; the app calls it with its own `API_VERSION`.
 * @example apiCompatibility({ apiVersion: 2, oldestAppApiVersion: 1 }, 1) → 'ok'
 */
export function apiCompatibility(server: { apiVersion: number; oldestAppApiVersion: number }, appApiVersion: number): ApiCompatibility {
  if (server.apiVersion < appApiVersion) return 'server_too_old';
  if (server.oldestAppApiVersion > appApiVersion) return 'app_too_old';
  return 'ok';
}
