/**
 * Whether the browser promised to keep what the app stores on the device (docs/decisions/095). A
 * browser may clear a site's IndexedDB, the offline outbox included, when the device runs low on
 * space, unless the site's storage is persistent (`navigator.storage.persist()`, StorageManager).
 * The scanner asks once per page; Chromium grants it to an installed app without asking, Firefox asks
 * the user, Safari decides by itself. When it is refused, the scanner says so while scans wait to be
 * sent, so a door team on a browser knows that installing the app keeps them.
 *
 * On the native app the outbox has a copy in the app's own files instead
 * (features/scanner/offline/durable-copy.ts): 'kept'.
 */
import { useEffect, useState } from 'react';
import { isNativePlatform } from './native/platform.ts';

/**
 * 'kept': the storage is persistent (or the native app keeps its own copy); 'may_be_cleared': the
 * browser refused; 'unknown': the browser cannot say (no StorageManager, or it failed).
 */
export type DeviceStorageKeeping = 'kept' | 'may_be_cleared' | 'unknown';

let asking: Promise<DeviceStorageKeeping> | null = null;

/** Asks the browser to keep the app's storage, once per page; never rejects. */
export function keepDeviceStorage(): Promise<DeviceStorageKeeping> {
  asking ??= ask();
  return asking;
}

async function ask(): Promise<DeviceStorageKeeping> {
  if (isNativePlatform()) return 'kept';
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (typeof storage?.persist !== 'function') return 'unknown';
  try {
    if (typeof storage.persisted === 'function' && (await storage.persisted())) return 'kept';
    return (await storage.persist()) ? 'kept' : 'may_be_cleared';
  } catch {
    return 'unknown';
  }
}

/** The answer of `keepDeviceStorage()` in a component (null until it came), asked when it mounts. */
export function useDeviceStorageKeeping(): DeviceStorageKeeping | null {
  const [keeping, setKeeping] = useState<DeviceStorageKeeping | null>(null);
  useEffect(() => {
    let isCurrent = true;
    void keepDeviceStorage().then((answer) => {
      if (isCurrent) setKeeping(answer);
    });
    return () => {
      isCurrent = false;
    };
  }, []);
  return keeping;
}

/** Forgets the answer (tests: each starts with a browser not yet asked). */
export function resetDeviceStorageKeeping(): void {
  asking = null;
}
