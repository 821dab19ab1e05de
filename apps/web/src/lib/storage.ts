/**
 * Persistent key-value storage (SPEC §3): browser localStorage on the web, device preferences on
 * native. Values are strings; JSON helpers parse with a zod schema so a corrupt or outdated value
 * reads as absent instead of crashing the app.
 *
 * Storage can fail: localStorage throws SecurityError when the browser blocks it and
 * QuotaExceededError when full; the native Preferences bridge can reject. None of that may blank or
 * stop the app: a failed read is treated as absent, and a failed write or delete is reported with
 * the toast `storageFailedNotice()` (the in-memory state, kept by the callers, still applies until
 * the app is closed). These functions never throw.
 */
import { safeParse, type core, type output } from 'zod/mini';
import { t } from './i18n/instance.ts';
import { isNativePlatform } from './native/platform.ts';
import { preferencesGet, preferencesRemove, preferencesSet } from './native/preferences.ts';
import { notify, type Notice } from './toast.ts';

/**
 * Shown when a choice could not be written to (or removed from) device storage: 'Not saved on this
 * device' / 'Storage on this device is unavailable, so your choice applies only until the app is
 * closed.' (decision 016), in the active language.
 */
export const storageFailedNotice = (): Notice => ({
  title: t('storage.failedTitle'),
  description: t('storage.failedDescription'),
  variant: 'error',
  id: 'storage-failed',
  // Raised while a choice is stored, right before the step to the next screen: it must be seen there.
  scope: 'next-screen',
});

/**
 * The SPEC §3 storage keys (the saved user and the three selections) and ours: `deviceSettings`,
 * this device's scanner switches (lib/device-settings.ts, issue 10).
 */
export const storageKeys = {
  user: 'user',
  selectedOrganization: 'selectedOrganization',
  selectedEvent: 'selectedEvent',
  selectedDay: 'selectedDay',
  deviceSettings: 'deviceSettings',
} as const;

export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

/** The stored string under `key`, or null (also when storage cannot be read). */
async function readItem(key: StorageKey): Promise<string | null> {
  try {
    if (isNativePlatform()) return await preferencesGet(key);
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Runs a storage change; a failure shows `storageFailedNotice()` instead of throwing. */
async function change(write: () => Promise<void> | void): Promise<void> {
  try {
    await write();
  } catch {
    notify(storageFailedNotice());
  }
}

/** Stores `value` under `key`; a failure is toasted, never thrown. */
async function writeItem(key: StorageKey, value: string): Promise<void> {
  await change(() => (isNativePlatform() ? preferencesSet(key, value) : window.localStorage.setItem(key, value)));
}

/** Deletes `key`; a failure is toasted, never thrown. */
export async function removeItem(key: StorageKey): Promise<void> {
  await change(() => (isNativePlatform() ? preferencesRemove(key) : window.localStorage.removeItem(key)));
}

/** The JSON value under `key` parsed with `schema`; null when absent, not JSON, or not matching. */
export async function readJson<S extends core.$ZodType>(key: StorageKey, schema: S): Promise<output<S> | null> {
  const raw = await readItem(key);
  if (raw === null) return null;
  try {
    const result = safeParse(schema, JSON.parse(raw));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** Stores `value` as JSON under `key`; a failure is toasted, never thrown. */
export async function writeJson(key: StorageKey, value: unknown): Promise<void> {
  await writeItem(key, JSON.stringify(value));
}
