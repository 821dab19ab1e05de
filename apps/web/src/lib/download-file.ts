/**
 * Saving an API answer as a file on this device: the live door's CSV exports (docs/decisions/117)
 * and the tickets screen's QR codes (PNG, PDF; docs/decisions/114). Fetched with the session like
 * every call (`apiFetch`: a 401 ends the session there too), then handed to the browser as a
 * download through a temporary object URL.
 */
import { apiFetch } from './api-client.ts';

/** How long the object URL outlives the click that hands the file to the browser, in ms. */
const OBJECT_URL_LIFETIME_MS = 10_000;

/**
 * Fetches API path `path` and saves its answer as `fileName`; `type` overrides the answer's media
 * type (e.g. 'text/csv;charset=utf-8', so the file opens as UTF-8 text).
 * @throws {ApiError} when the server refuses or cannot be reached (nothing is saved).
 */
export async function downloadApiFile(path: string, fileName: string, type?: string): Promise<void> {
  const answer = await (await apiFetch(path)).blob();
  const url = URL.createObjectURL(type === undefined ? answer : new Blob([answer], { type }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has handed the file to the browser.
    setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
  }
}
