/**
 * This device's own choices (issue 10), in one place (docs/decisions/051): the scanner switches
 * 'Continuous scanning', 'Sound', 'Vibration', the theme and the language. Each phone at a door keeps
 * its own; none of them belongs to a user, so logout keeps them.
 *
 * **Where** (SPEC §3: "The web uses browser local storage; native uses device preferences"): one JSON
 * object under the storage key `deviceSettings`, through lib/storage.ts — localStorage on the web,
 * Capacitor Preferences on native (the same rule as the four SPEC §3 keys; this fifth key holds no
 * user data and no scanned code). Tab-scoped things (recent scans, the last verdict) stay in
 * sessionStorage (lib/tab-memory.ts, decision 034).
 *
 * **Reading is synchronous**: the theme must be right before the first paint, the language before
 * the first text, and the sound switch when a verdict lands. The settings live in memory: on the web
 * they are read from localStorage when this module loads; on native `loadDeviceSettings()` reads
 * Preferences, and `startApp` awaits it before the first render.
 *
 * **Defaults are the SPEC behaviour**, field by field: a missing, corrupt or outdated field reads as
 * its default (`z.catch`), never resetting the others. Add a choice by adding a field wrapped in `z.catch(schema, default)`.
 *
 * **Older devices**: before decision 051 the theme, the sound/vibration switches and the language
 * were kept in localStorage under 'gatecheck.theme' (JSON string), 'gatecheck.feedback' (JSON
 * object) and 'gatecheck.language' (raw 'en' | 'de'). They are read as the values of fields the
 * `deviceSettings` object does not have yet, written into it by the next `loadDeviceSettings()`, and
 * then removed.
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { z } from 'zod/mini';
import { LANGUAGES } from './i18n/instance.ts';
import { isNativePlatform } from './native/platform.ts';
import { readJson, storageKeys, writeJson } from './storage.ts';

/** 'system' follows the device's light/dark setting; 'light' and 'dark' hold whatever it says (decision 036). */
export const ThemePreference = z.enum(['system', 'light', 'dark']);
export type ThemePreference = z.infer<typeof ThemePreference>;

/** The stored shape; every field falls back to its default. */
export const DeviceSettings = z.object({
  /** Issue 10 item 1: the camera keeps running and verifies code after code. Off = SPEC §4. */
  continuousScanning: z.catch(z.boolean(), false),
  /** Issue 10 item 3: the verdict's tone. On by default. */
  isSoundOn: z.catch(z.boolean(), true),
  /** Issue 10 item 3: the verdict's vibration / haptic pattern. On by default. */
  isVibrationOn: z.catch(z.boolean(), true),
  /** Issue 10 item 8: the theme; 'system' (the device's) by default. */
  theme: z.catch(ThemePreference, 'system'),
  /** Issue 10 item 9: the language chosen with the switch; null = the device's (English when not German). */
  language: z.catch(z.nullable(z.enum(LANGUAGES)), null),
});
export type DeviceSettings = z.infer<typeof DeviceSettings>;

/** Every choice at its default (the SPEC behaviour). */
export const defaultDeviceSettings: DeviceSettings = z.parse(DeviceSettings, {});

/** The localStorage keys used before decision 051 (see the module comment). */
export const LEGACY_DEVICE_SETTING_KEYS = { theme: 'gatecheck.theme', feedback: 'gatecheck.feedback', language: 'gatecheck.language' } as const;

/** Any JSON object (its fields are checked one by one by `DeviceSettings`). */
const StoredObject = z.record(z.string(), z.unknown());

function localItem(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function parseJson(raw: string | null): unknown {
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** The fields found under the legacy keys (only those present). */
function readLegacyFields(): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const theme = parseJson(localItem(LEGACY_DEVICE_SETTING_KEYS.theme));
  if (theme !== undefined) fields['theme'] = theme;
  const feedback = z.safeParse(StoredObject, parseJson(localItem(LEGACY_DEVICE_SETTING_KEYS.feedback)));
  if (feedback.success) {
    if ('isSoundOn' in feedback.data) fields['isSoundOn'] = feedback.data['isSoundOn'];
    if ('isVibrationOn' in feedback.data) fields['isVibrationOn'] = feedback.data['isVibrationOn'];
  }
  const language = localItem(LEGACY_DEVICE_SETTING_KEYS.language);
  if (language !== null) fields['language'] = language;
  return fields;
}

function removeLegacyKeys(): void {
  try {
    for (const key of Object.values(LEGACY_DEVICE_SETTING_KEYS)) window.localStorage.removeItem(key);
  } catch {
    // Blocked storage: they are read again next time, and stay overridden by `deviceSettings`.
  }
}

/** The settings as far as they can be read synchronously (web: localStorage; native: the legacy keys only). */
function readSynchronously(): DeviceSettings {
  const stored = isNativePlatform() ? undefined : z.safeParse(StoredObject, parseJson(localItem(storageKeys.deviceSettings))).data;
  return z.parse(DeviceSettings, { ...readLegacyFields(), ...stored });
}

let current: DeviceSettings = typeof window === 'undefined' ? defaultDeviceSettings : readSynchronously();
/** Bumped by every change, so a slow read from storage never overwrites a newer choice. */
let version = 0;
const listeners = new Set<() => void>();

function publish(next: DeviceSettings): void {
  current = next;
  for (const listener of listeners) listener();
}

/** The settings now (synchronous; see the module comment). */
export function readDeviceSettings(): DeviceSettings {
  return current;
}

/**
 * Reads the stored settings into memory (defaults for what is absent or unreadable), moving values
 * found under the legacy keys into `deviceSettings`. Never rejects.
 */
export async function loadDeviceSettings(): Promise<DeviceSettings> {
  const readAt = version;
  const stored = await readJson(storageKeys.deviceSettings, StoredObject);
  const legacy = readLegacyFields();
  if (version === readAt) publish(z.parse(DeviceSettings, { ...legacy, ...stored }));
  if (Object.keys(legacy).length > 0) {
    await writeJson(storageKeys.deviceSettings, current);
    removeLegacyKeys();
  }
  return current;
}

/**
 * Calls `listener` after every change (here, or stored by another tab of this browser); returns the
 * function that stops it.
 */
export function subscribeToDeviceSettings(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

function onStorage(event: StorageEvent): void {
  if (event.key === storageKeys.deviceSettings || event.key === null) void loadDeviceSettings();
}

/**
 * Changes some settings: in memory at once (every subscriber hears it), then in device storage (a
 * failed write shows lib/storage's 'Not saved on this device' toast; the choice still applies until
 * the app is closed). Never rejects.
 */
export async function updateDeviceSettings(patch: Partial<DeviceSettings>): Promise<void> {
  version += 1;
  publish({ ...current, ...patch });
  await writeJson(storageKeys.deviceSettings, current);
}

/**
 * The device settings in a component, re-rendering on change, and `update(patch)` (see
 * `updateDeviceSettings`). Storage is read again when it mounts (another tab, or an older version
 * of the app in this WebView, may have changed it).
 */
export function useDeviceSettings(): { settings: DeviceSettings; update: (patch: Partial<DeviceSettings>) => void } {
  // The prerendered sign-in screen (docs/decisions/082) shows the defaults; hydrating it reads them
  // too, so a stored choice is applied by the render after hydration, never as a mismatch.
  const settings = useSyncExternalStore(subscribeToDeviceSettings, readDeviceSettings, () => defaultDeviceSettings);
  const update = useCallback((patch: Partial<DeviceSettings>) => void updateDeviceSettings(patch), []);
  useEffect(() => {
    void loadDeviceSettings();
  }, []);
  return { settings, update };
}
