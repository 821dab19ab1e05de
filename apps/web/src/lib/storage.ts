/**
 * Persistent key-value storage (SPEC §3): browser localStorage on the web, device preferences on
 * native. Values are strings; JSON helpers parse with a zod schema so a corrupt or outdated value
 * reads as absent instead of crashing the app.
 */
import type { z } from 'zod';
import { isNativePlatform } from './native/platform.ts';
import { preferencesGet, preferencesRemove, preferencesSet } from './native/preferences.ts';

/** The SPEC §3 storage keys: the saved user and the three selections. */
export const storageKeys = {
  user: 'user',
  selectedOrganization: 'selectedOrganization',
  selectedEvent: 'selectedEvent',
  selectedDay: 'selectedDay',
} as const;

export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

/** The stored string under `key`, or null. */
async function readItem(key: StorageKey): Promise<string | null> {
  if (isNativePlatform()) return preferencesGet(key);
  return window.localStorage.getItem(key);
}

/** Stores `value` under `key`. */
async function writeItem(key: StorageKey, value: string): Promise<void> {
  if (isNativePlatform()) return preferencesSet(key, value);
  window.localStorage.setItem(key, value);
}

/** Deletes `key`. */
export async function removeItem(key: StorageKey): Promise<void> {
  if (isNativePlatform()) return preferencesRemove(key);
  window.localStorage.removeItem(key);
}

/** The JSON value under `key` parsed with `schema`; null when absent, not JSON, or not matching. */
export async function readJson<S extends z.ZodType>(key: StorageKey, schema: S): Promise<z.output<S> | null> {
  const raw = await readItem(key);
  if (raw === null) return null;
  try {
    const result = schema.safeParse(JSON.parse(raw));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** Stores `value` as JSON under `key`. */
export async function writeJson(key: StorageKey, value: unknown): Promise<void> {
  await writeItem(key, JSON.stringify(value));
}
