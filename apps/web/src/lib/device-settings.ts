/**
 * This device's scanner switches (issue 10), kept in device storage under `deviceSettings` (lib/storage:
 * localStorage on the web, Preferences on native), so each phone at a door keeps its own choice. Each
 * switch defaults to the SPEC behaviour: `continuousScanning` false = SPEC §4 (the camera stops after
 * each decode).
 *
 * Add a switch by adding a field wrapped in `z.catch(schema, default)`: a stored value that is missing, corrupt or
 * from an older version reads as the default, field by field, so one bad field never resets the others.
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { z } from 'zod/mini';
import { readJson, storageKeys, writeJson } from './storage.ts';

/** The stored shape; every field falls back to its default. */
export const DeviceSettings = z.object({
  /** Issue 10 item 1: the camera keeps running and verifies code after code. Off = SPEC §4. */
  continuousScanning: z.catch(z.boolean(), false),
});
export type DeviceSettings = z.infer<typeof DeviceSettings>;

/** Every switch at its default (the SPEC behaviour). */
export const defaultDeviceSettings: DeviceSettings = z.parse(DeviceSettings, {});

let current: DeviceSettings = defaultDeviceSettings;
/** Bumped by every change, so a slow read from storage never overwrites a newer choice. */
let version = 0;
const listeners = new Set<() => void>();

function publish(next: DeviceSettings): void {
  current = next;
  for (const listener of listeners) listener();
}

/** Reads the stored settings into memory (defaults when absent or unreadable). Never rejects. */
export async function loadDeviceSettings(): Promise<DeviceSettings> {
  const readAt = version;
  const stored = await readJson(storageKeys.deviceSettings, DeviceSettings);
  if (version === readAt) publish(stored ?? defaultDeviceSettings);
  return current;
}

function subscribe(listener: () => void): () => void {
  // The first screen that shows a switch reads storage (again: another tab may have changed it).
  if (listeners.size === 0) void loadDeviceSettings();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Changes some switches: in memory at once, then in device storage (a failed write shows lib/storage's
 * 'Not saved on this device' toast; the choice still applies until the app is closed). Never rejects.
 */
export async function updateDeviceSettings(patch: Partial<DeviceSettings>): Promise<void> {
  version += 1;
  publish({ ...current, ...patch });
  await writeJson(storageKeys.deviceSettings, current);
}

/**
 * The device settings, re-rendering on change, and `update(patch)` (see `updateDeviceSettings`).
 * Shows the defaults until storage has been read (a few ms on the web).
 */
export function useDeviceSettings(): { settings: DeviceSettings; update: (patch: Partial<DeviceSettings>) => void } {
  const settings = useSyncExternalStore(subscribe, () => current);
  const update = useCallback((patch: Partial<DeviceSettings>) => void updateDeviceSettings(patch), []);
  // A change made in another tab of this browser shows here too.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === storageKeys.deviceSettings) void loadDeviceSettings();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  return { settings, update };
}
