/**
 * The one HTTP client of the app (SPEC §7). Every call goes to the API base (`currentApiBaseUrl()`:
 * the build's `VITE_API_BASE_URL` on the web, the server chosen on the login screen on native) + a path from
 * `apiPaths` of `@gatecheck/contract`, sends cookies (`credentials: 'include'`) and, when a session
 * token is stored, `Authorization: Bearer <token>`. Responses are parsed with the caller's contract
 * schema; nothing from the network is trusted unparsed. A schema may be classic zod or `zod/mini`
 * (the sign-in screen's, issue 13): both are parsed through zod's shared core. Whether a call got an
 * answer at all feeds the 'Offline' indicator (`lib/reachability.ts`).
 */
import { ApiErrorBody } from '@gatecheck/contract/errors';
import { safeParse, type core, type output } from 'zod/mini';
import { currentApiCompatibility, reportServerApiVersion } from './api-compatibility.ts';
import { reportServerAnswered, reportServerUnreachable } from './reachability.ts';
import { reportListRefused } from './list-refused.ts';
import { reportSessionEnded } from './session-ended.ts';
import { currentApiBaseUrl } from './server-address.ts';
import { readStoredToken } from './stored-user.ts';

/**
 * The only error the api-client throws.
 * - `status` 0 and `code` 'network_error': the request never got an answer (offline, DNS, CORS, abort).
 * - `code` 'invalid_response': the answer (2xx) did not match the expected schema; 'server_too_old' or
 *   'app_too_old' instead when the server said it speaks a contract this app does not
 *   (lib/api-compatibility.ts, docs/decisions/094).
 * - otherwise `status` is the HTTP status and `code`/`message` come from the `{ code, message }` body
 *   (`code` 'http_error' and the status text when the body is not of that shape).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Seconds to wait before trying again (a 429's `Retry-After`), when the server said. */
  readonly retryAfterSeconds: number | undefined;
  /** The request field the refusal is about (`body.title`), when the server named one. */
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, retryAfterSeconds?: number, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
    this.field = field;
  }
}

export interface ApiRequestOptions<S extends core.$ZodType> {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Contract schema the 2xx body must match. */
  schema: S;
  signal?: AbortSignal;
  /**
   * Bearer token to send. Omitted: the stored session token (if any). A string: that token (login
   * uses the fresh one). null: no Authorization header (the web session check relies on cookies).
   */
  token?: string | null;
}

/** Statuses a proxy answers with when the server behind it is down or slow: the server was not reached. */
const GATEWAY_FAILURES = new Set([502, 503, 504]);

/** Absolute URL of an API path, resolving a relative base (default '/api') against the page origin. */
export function apiUrl(path: string): string {
  return new URL(`${currentApiBaseUrl()}${path}`, window.location.origin).toString();
}

/**
 * Performs one API call and returns the parsed body.
 *
 * @param path an `apiPaths` value (or `organizationEventsPath(id)`), e.g. '/users/me'
 * @throws {ApiError} on network failure, a non-2xx status, or a body not matching `schema`
 */
export async function apiRequest<S extends core.$ZodType>(path: string, options: ApiRequestOptions<S>): Promise<output<S>> {
  const token = options.token === undefined ? await readStoredToken() : options.token;
  const headers = new Headers({ Accept: 'application/json' });
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'include',
      signal: options.signal,
    });
  } catch (error) {
    // No answer: the 'Offline' indicator shows (lib/reachability.ts), unless the caller gave up itself.
    if (!options.signal?.aborted) reportServerUnreachable();
    throw new ApiError(0, 'network_error', error instanceof Error ? error.message : 'Network error');
  }
  // 502-504: a proxy or load balancer answered for a server that did not.
  if (GATEWAY_FAILURES.has(response.status)) reportServerUnreachable();
  else reportServerAnswered();
  reportServerApiVersion(response.headers);

  const payload = await readJsonBody(response);

  if (!response.ok) throw refusalOf(response, payload);

  const parsed = safeParse(options.schema, payload);
  if (!parsed.success) {
    // An answer this app cannot read from a server that said it speaks another contract: say which.
    const compatibility = currentApiCompatibility();
    if (compatibility !== 'ok') throw new ApiError(response.status, compatibility, 'The server speaks another version of the Gatecheck API.');
    throw new ApiError(response.status, 'invalid_response', 'The server answered in an unexpected format.');
  }
  return parsed.data;
}

/**
 * The `ApiError` of a non-2xx answer with JSON body `payload`, for `apiRequest` and `apiFetch` alike:
 * a 401 `unauthenticated` or `device_revoked` also reports the session ended (the session signs
 * out, SPEC §8 'Session expired'), whichever of the two made the call.
 */
function refusalOf(response: Response, payload: unknown): ApiError {
  const errorBody = safeParse(ApiErrorBody, payload);
  if (!errorBody.success) return new ApiError(response.status, 'http_error', response.statusText || `HTTP ${response.status}`);
  // The session ended on the server (not a wrong password: that is `invalid_credentials`).
  if (response.status === 401 && (errorBody.data.code === 'unauthenticated' || errorBody.data.code === 'device_revoked')) reportSessionEnded(errorBody.data.code);
  // A door device asking at a list it was moved away from: it learns of the move now (docs/decisions/129).
  if (response.status === 400 && errorBody.data.field === 'checkInListId') reportListRefused();
  return new ApiError(response.status, errorBody.data.code, errorBody.data.message, retryAfterSecondsOf(response), errorBody.data.field);
}

/** A `Retry-After` given in whole seconds (how our server sends it), or undefined. */
function retryAfterSecondsOf(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/** The JSON body, or undefined when there is none or it is not JSON. */
async function readJsonBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One API call whose answer is not JSON to parse whole (a file to download, a stream of lines): the
 * same base URL, cookies and bearer token as `apiRequest`, `body` sent as it is (a File with its
 * `contentType`). A non-2xx answer throws as `apiRequest` does, and a 401 ends the session as there.
 * @returns the 2xx Response, its body unread.
 * @throws {ApiError} on network failure or a non-2xx status.
 */
export async function apiFetch(path: string, options: { method?: 'GET' | 'POST'; body?: Blob; contentType?: string; signal?: AbortSignal } = {}): Promise<Response> {
  const token = await readStoredToken();
  const headers = new Headers();
  if (options.contentType) headers.set('Content-Type', options.contentType);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(apiUrl(path), { method: options.method ?? 'GET', headers, body: options.body, credentials: 'include', signal: options.signal });
  } catch (error) {
    if (!options.signal?.aborted) reportServerUnreachable();
    throw new ApiError(0, 'network_error', error instanceof Error ? error.message : 'Network error');
  }
  if (GATEWAY_FAILURES.has(response.status)) reportServerUnreachable();
  else reportServerAnswered();
  if (response.ok) return response;
  throw refusalOf(response, await readJsonBody(response));
}
