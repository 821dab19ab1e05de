/**
 * Saving an API answer as a file on this device: the live door's CSV exports (docs/decisions/117)
 * and the tickets screen's QR codes (PNG, PDF; docs/decisions/114). Fetched with the session like
 * every call (`apiFetch`: a 401 ends the session there too), then, in a browser, handed to it as a
 * download through a temporary object URL; in the native app, whose WebView ignores such a download,
 * written to the phone and offered in the system share sheet (lib/native/share-file.ts,
 * docs/decisions/144).
 */
import { apiFetch } from './api-client.ts';
import { t } from './i18n/instance.ts';
import { isNativePlatform } from './native/platform.ts';
import { notify } from './toast.ts';

/** How long the object URL outlives the click that hands the file to the browser, in ms. */
const OBJECT_URL_LIFETIME_MS = 10_000;

/**
 * Fetches API path `path` and saves its answer as `fileName`; `type` overrides the answer's media
 * type (e.g. 'text/csv;charset=utf-8', so the file opens as UTF-8 text).
 *
 * In the native app the file goes to the share sheet (the phone takes its type from the name's
 * extension) and the promise settles when the sheet closes; a file that cannot be written or shared
 * is told in an error toast, and a sheet closed without a choice is no failure: neither rejects.
 * @throws {ApiError} when the server refuses or cannot be reached (nothing is saved).
 */
export async function downloadApiFile(path: string, fileName: string, type?: string): Promise<void> {
  const answer = await (await apiFetch(path)).blob();
  const file = type === undefined ? answer : new Blob([answer], { type });
  if (isNativePlatform()) {
    await shareOnPhone(fileName, file);
    return;
  }
  const url = URL.createObjectURL(file);
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

/** Writes `file` on the phone and opens the share sheet with it; says so in a toast when that fails. */
async function shareOnPhone(fileName: string, file: Blob): Promise<void> {
  try {
    // On demand: a browser never loads the Filesystem and Share plugins (docs/decisions/082).
    const { shareFile } = await import('./native/share-file.ts');
    await shareFile({ fileName, file, dialogTitle: t('files.shareTitle', { fileName }) });
  } catch {
    notify({ title: t('files.saveFailed', { fileName }), description: t('files.saveFailedHint'), variant: 'error' });
  }
}
