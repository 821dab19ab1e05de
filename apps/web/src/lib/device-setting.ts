/**
 * One choice remembered on this device (issue 10: theme, sound, vibration), read synchronously so a
 * screen paints with it from the first frame. Kept in `localStorage` (the native WebView keeps it
 * too), parsed with a zod schema like lib/storage.ts: a missing, corrupt or outdated value reads as
 * the default, and blocked or full storage never throws (the choice then lasts until the app closes).
 *
 * Not SPEC §3 keys (those go through storage.ts and native Preferences): these are per-device
 * preferences of this issue, under `gatecheck.*` keys (docs/decisions/035).
 */
import { useSyncExternalStore } from 'react';
import { safeParse, type core, type output } from 'zod/mini';

/** A remembered choice: read it, change it, and follow its changes (same tab and other tabs). */
export interface DeviceSetting<T> {
  /** The localStorage key. */
  key: string;
  /** The stored value, or the default when absent/unreadable/not matching the schema. */
  read(): T;
  /** Keeps `value` (memory first, then storage; a storage failure is silent) and tells subscribers. */
  write(value: T): void;
  /** Calls `onChange` after every write here or in another tab; returns the unsubscribe function. */
  subscribe(onChange: () => void): () => void;
}

/**
 * @param key localStorage key, e.g. 'gatecheck.theme'.
 * @param schema zod schema of the stored JSON value.
 * @param defaultValue the value while nothing valid is stored.
 */
export function createDeviceSetting<S extends core.$ZodType>(key: string, schema: S, defaultValue: output<S>): DeviceSetting<output<S>> {
  type T = output<S>;
  const listeners = new Set<() => void>();
  // The last value read or written; also what applies when storage is blocked.
  let cached: { raw: string | null; value: T } | null = null;

  const readRaw = (): string | null => {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return cached?.raw ?? null;
    }
  };

  const read = (): T => {
    const raw = readRaw();
    // Same raw text, same object: useSyncExternalStore needs a stable snapshot.
    if (cached !== null && cached.raw === raw) return cached.value;
    let value: T = defaultValue;
    if (raw !== null) {
      try {
        const parsed = safeParse(schema, JSON.parse(raw));
        if (parsed.success) value = parsed.data;
      } catch {
        // Not JSON: the default applies.
      }
    }
    cached = { raw, value };
    return value;
  };

  const notify = () => {
    for (const listener of listeners) listener();
  };

  const write = (value: T): void => {
    const raw = JSON.stringify(value);
    cached = { raw, value };
    try {
      window.localStorage.setItem(key, raw);
    } catch {
      // Blocked or full storage: the choice holds in memory until the app closes.
    }
    notify();
  };

  const onStorage = (event: StorageEvent) => {
    if (event.key === key || event.key === null) notify();
  };

  const subscribe = (onChange: () => void): (() => void) => {
    listeners.add(onChange);
    if (listeners.size === 1) window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(onChange);
      if (listeners.size === 0) window.removeEventListener('storage', onStorage);
    };
  };

  return { key, read, write, subscribe };
}

/** The current value of `setting` in a component, re-rendering on every change. */
export function useDeviceSetting<T>(setting: DeviceSetting<T>): T {
  return useSyncExternalStore(setting.subscribe, setting.read, setting.read);
}
