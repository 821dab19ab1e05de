/**
 * Handing a file to the phone's share sheet (docs/decisions/144). The native app's WebView ignores a
 * download link to a blob URL (`<a download>`): nothing happens. So on the phone a file the app
 * saves (the live door's CSV exports, /manage's QR PNG and PDF) is written to the app's cache folder
 * (Capacitor Filesystem, `Directory.Cache`, under 'exports/') and offered with the system share sheet
 * (`@capacitor/share`), where the person saves it (Files, Drive, Downloads) or sends it (mail, chat).
 *
 * Native only: callers ask `isNativePlatform()` first (Capacitor's web implementations would put
 * the file into the browser's IndexedDB and offer a text-only Web Share). The plugins are imported
 * on the first call, so a browser never loads them (docs/decisions/082). The cache folder is the
 * one the Android shell's FileProvider may hand out (res/xml/file_paths.xml, `cache-path`); the OS
 * may clear it when it needs room: the file only has to outlive the share.
 */
// The modules, not the plugins: a Capacitor plugin is a proxy that answers every property, `then`
// included, so a promise must never resolve to the plugin itself.
const loadFilesystem = () => import('@capacitor/filesystem');
const loadShare = () => import('@capacitor/share');

/** The folder of the cache directory the shared files are written to. */
export const SHARED_FILES_FOLDER = 'exports';

/**
 * Bytes per bridge message when a file is written, 384 KiB (512 KiB of base64). A multiple of 3, so
 * each part's base64 has no padding and the parts join into the base64 of the whole file; a PDF of
 * a large event crosses the bridge in parts instead of one string of many MB.
 */
export const SHARE_PART_BYTES = 3 * 128 * 1024;

/** The words of the share sheet's message that `@capacitor/share` rejects with when the person closes it (Android and iOS). */
const SHARE_CANCELED = 'Share canceled';

/** What became of a shared file: handed to an app, or the share sheet closed without choosing one. */
export type ShareOutcome = 'shared' | 'canceled';

export interface SharedFile {
  /** The file's name, e.g. 'arrivals-day-1.csv'. Its extension gives the type the phone offers it as. */
  fileName: string;
  /** The file's bytes. */
  file: Blob;
  /** The share sheet's heading (Android; iOS shows none). */
  dialogTitle: string;
}

/**
 * Writes `file` to the cache folder as `fileName` (replacing an earlier file of that name) and opens
 * the share sheet with it. Resolves when the sheet closes: 'shared' when an app took the file,
 * 'canceled' when the person closed the sheet (not a failure).
 * @throws the plugin's error when the file cannot be written (a full disk) or the sheet cannot be
 *   opened (another share still open)
 */
export async function shareFile({ fileName, file, dialogTitle }: SharedFile): Promise<ShareOutcome> {
  const { Directory, Filesystem } = await loadFilesystem();
  // A '/' would make a folder of the name; the name stays what the person sees.
  const path = `${SHARED_FILES_FOLDER}/${fileName.replace(/[/\\]/g, '-')}`;
  let uri = '';
  for (let offset = 0; offset === 0 || offset < file.size; offset += SHARE_PART_BYTES) {
    const data = await base64Of(file.slice(offset, offset + SHARE_PART_BYTES));
    // Without `encoding`, the plugin decodes `data` as base64 and writes the bytes.
    if (offset === 0) ({ uri } = await Filesystem.writeFile({ path, data, directory: Directory.Cache, recursive: true }));
    else await Filesystem.appendFile({ path, data, directory: Directory.Cache });
  }
  const { Share } = await loadShare();
  try {
    await Share.share({ title: fileName, files: [uri], dialogTitle });
  } catch (error) {
    if (error instanceof Error && error.message === SHARE_CANCELED) return 'canceled';
    throw error;
  }
  return 'shared';
}

/** The base64 of `part`'s bytes (no `data:` prefix), read by the WebView's own FileReader. */
function base64Of(part: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(part);
  });
}
