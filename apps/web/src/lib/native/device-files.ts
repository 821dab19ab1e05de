/**
 * Files in the app's own storage on the phone (Capacitor Filesystem, docs/decisions/095): on iOS the
 * Library folder without iCloud backup, on Android the app's files folder (`Directory.LibraryNoCloud`).
 * Unlike the WebView's IndexedDB, the OS never clears them to make room; they go only with the app.
 * The offline store keeps a copy of what must not be lost there (features/scanner/offline/durable-copy.ts,
 * door-list-copy.ts).
 *
 * Native only: callers ask `isNativePlatform()` first (Capacitor's web implementation of Filesystem
 * would only put the files back into the browser's IndexedDB). Paths are relative, '/'-separated,
 * e.g. 'offline/outbox/5f0c….json'; text is UTF-8.
 */
import { Directory, Encoding, Filesystem } from '@capacitor/filesystem';

const DIRECTORY = Directory.LibraryNoCloud;

/**
 * Writes `text` to `path` whole, or leaves the old file: it is written beside it first and then
 * renamed over it, so an app killed mid-write never leaves half a file. Folders are made as needed.
 * @throws the plugin's error when the file cannot be written (a full disk)
 */
export async function writeDeviceFile(path: string, text: string): Promise<void> {
  const partial = `${path}.partial`;
  await Filesystem.writeFile({ path: partial, data: text, directory: DIRECTORY, encoding: Encoding.UTF8, recursive: true });
  await Filesystem.rename({ from: partial, to: path, directory: DIRECTORY, toDirectory: DIRECTORY });
}

/**
 * Writes the text of `parts`, in order, to `path` whole, or leaves the old file, as `writeDeviceFile`
 * does; for texts of many MB (a door list): each part crosses the bridge on its own (the first is
 * written, the others appended), and the page gets the main thread back between parts (a macrotask),
 * so a scan is not kept waiting while the text is made. Parts are made as they are asked for.
 * @throws the plugin's error when the file cannot be written (a full disk)
 */
export async function writeDeviceFileInParts(path: string, parts: Iterable<string>): Promise<void> {
  const partial = `${path}.partial`;
  let isFirst = true;
  for (const part of parts) {
    if (isFirst) await Filesystem.writeFile({ path: partial, data: part, directory: DIRECTORY, encoding: Encoding.UTF8, recursive: true });
    else await Filesystem.appendFile({ path: partial, data: part, directory: DIRECTORY, encoding: Encoding.UTF8 });
    isFirst = false;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (isFirst) await Filesystem.writeFile({ path: partial, data: '', directory: DIRECTORY, encoding: Encoding.UTF8, recursive: true });
  await Filesystem.rename({ from: partial, to: path, directory: DIRECTORY, toDirectory: DIRECTORY });
}

/** The text of `path`, or null when there is no such file (or it cannot be read). */
export async function readDeviceFile(path: string): Promise<string | null> {
  try {
    const { data } = await Filesystem.readFile({ path, directory: DIRECTORY, encoding: Encoding.UTF8 });
    return typeof data === 'string' ? data : null;
  } catch {
    return null;
  }
}

/** Deletes `path`; a file that is not there is fine. */
export async function deleteDeviceFile(path: string): Promise<void> {
  try {
    await Filesystem.deleteFile({ path, directory: DIRECTORY });
  } catch {
    // Not there (or already gone): nothing to delete.
  }
}

/** The names of the files in folder `path` (not their paths), or [] when there is no such folder. */
export async function listDeviceFiles(path: string): Promise<string[]> {
  try {
    const { files } = await Filesystem.readdir({ path, directory: DIRECTORY });
    return files.filter((file) => file.type === 'file').map((file) => file.name);
  } catch {
    return [];
  }
}
