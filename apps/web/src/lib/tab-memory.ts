/**
 * What a screen keeps across a reload of the same tab or app window: `sessionStorage`, which the
 * browser and the native WebView keep for the tab's life and drop when it closes (decision 027).
 * For state of the moment (the open scanner panel, the latest verdict, the recent scans), not for choices: those are
 * in `storage.ts` (SPEC §3 keys).
 *
 * Everything here is forgotten when the selection moves to another event day, and at logout
 * (`selection.ts` calls `forgetTabMemory`). Like `storage.ts`, nothing here throws: storage that is
 * blocked or full reads as empty and does not keep the value.
 */
import { safeParse, type core, type output } from 'zod/mini';

/** The keys in use, one per screen. */
export const tabMemoryKeys = {
  scanner: 'gatecheck.scanner',
  /** The scanner's 'Recent scans' of the selected event day (decision 034). */
  recentScans: 'gatecheck.recentScans',
  /** A code whose check the end of the session cut off (scanner-memory.ts `rememberUncheckedCode`). */
  uncheckedCode: 'gatecheck.uncheckedCode',
} as const;

type TabMemoryKey = (typeof tabMemoryKeys)[keyof typeof tabMemoryKeys];

/** The value under `key` parsed with `schema`; null when absent, unreadable or not matching. */
export function readTabMemory<S extends core.$ZodType>(key: TabMemoryKey, schema: S): output<S> | null {
  try {
    const raw = window.sessionStorage.getItem(key);
    if (raw === null) return null;
    const result = safeParse(schema, JSON.parse(raw));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** Keeps `value` (as JSON) under `key` for this tab; a failure is silent (the screen still works). */
export function writeTabMemory(key: TabMemoryKey, value: unknown): void {
  try {
    window.sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Blocked or full storage: the state lives in memory only, as before a reload.
  }
}

/** Forgets everything screens kept for this tab. */
export function forgetTabMemory(): void {
  for (const key of Object.values(tabMemoryKeys)) {
    try {
      window.sessionStorage.removeItem(key);
    } catch {
      // Nothing can be read back from blocked storage either.
    }
  }
}
