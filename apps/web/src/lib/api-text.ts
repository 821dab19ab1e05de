/**
 * Text answers of the API (the live door's CSV exports, docs/decisions/117): the same URL, session
 * (cookie or stored bearer token) and errors as `apiRequest` (api-client.ts), the body returned as
 * text. A module of its own so the sign-in screen's first load does not carry it.
 */
import { ApiErrorBody } from '@gatecheck/contract';
import { ApiError, apiUrl } from './api-client.ts';
import { reportServerAnswered, reportServerUnreachable } from './reachability.ts';
import { readStoredToken } from './stored-user.ts';

/**
 * GETs `path` (an API path) and returns the body as text.
 * @throws {ApiError} on network failure (status 0) or a non-2xx status (its `{ code, message }`).
 */
export async function apiText(path: string, options: { signal?: AbortSignal } = {}): Promise<string> {
  const token = await readStoredToken();
  const headers = new Headers({ Accept: 'text/csv, application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(apiUrl(path), { headers, credentials: 'include', signal: options.signal });
  } catch (error) {
    if (!options.signal?.aborted) reportServerUnreachable();
    throw new ApiError(0, 'network_error', error instanceof Error ? error.message : 'Network error');
  }
  reportServerAnswered();
  const text = await response.text();
  if (response.ok) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const error = ApiErrorBody.safeParse(body);
  if (error.success) throw new ApiError(response.status, error.data.code, error.data.message);
  throw new ApiError(response.status, 'http_error', response.statusText || `HTTP ${response.status}`);
}
