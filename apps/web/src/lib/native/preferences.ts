/**
 * Device key-value storage on native (Capacitor Preferences, SPEC §3 "native uses device
 * preferences"). On the web, Capacitor's own web implementation of Preferences stands in (it
 * keeps values in localStorage under a prefix), so every call also works in a browser.
 */
import { Preferences } from '@capacitor/preferences';

/** The stored string, or null when the key is absent. */
export async function preferencesGet(key: string): Promise<string | null> {
  const { value } = await Preferences.get({ key });
  return value;
}

/** Stores a string under `key`. */
export async function preferencesSet(key: string, value: string): Promise<void> {
  await Preferences.set({ key, value });
}

/** Deletes `key`; absent keys are fine. */
export async function preferencesRemove(key: string): Promise<void> {
  await Preferences.remove({ key });
}
