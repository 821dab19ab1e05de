/**
 * Device key-value storage on native (Capacitor Preferences, SPEC §3 "native uses device
 * preferences"). The plugin is imported on the first call, so a browser (whose storage.ts uses
 * localStorage and never calls these) does not load Capacitor on its first load (docs/decisions/082).
 * In a browser the plugin's own web implementation would stand in (localStorage under a prefix).
 */
// The module, not the plugin: a Capacitor plugin is a proxy that answers every property, `then`
// included, so a promise must never resolve to the plugin itself.
const loadPreferences = () => import('@capacitor/preferences');

/** The stored string, or null when the key is absent. */
export async function preferencesGet(key: string): Promise<string | null> {
  const { value } = await (await loadPreferences()).Preferences.get({ key });
  return value;
}

/** Stores a string under `key`. */
export async function preferencesSet(key: string, value: string): Promise<void> {
  await (await loadPreferences()).Preferences.set({ key, value });
}

/** Deletes `key`; absent keys are fine. */
export async function preferencesRemove(key: string): Promise<void> {
  await (await loadPreferences()).Preferences.remove({ key });
}
