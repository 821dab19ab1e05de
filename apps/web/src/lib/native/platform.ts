/**
 * Which platform the app runs on. With its siblings in lib/native, the only place that knows about
 * Capacitor (STYLE: Boundaries). Tests take the native paths through Capacitor's real Android
 * bridge (src/test/android-bridge.ts: `window.androidBridge` + Capacitor's `native-bridge.js`,
 * answered by a stand-in of the Java side), not by mocking this module.
 *
 * No import of `@capacitor/core` here: the answer is needed on the sign-in screen's first load,
 * where Capacitor's web runtime has nothing to do in a browser (issue 24, docs/decisions/061 and
 * 082). The plugins are imported on demand, on native only (preferences.ts, status-bar.ts,
 * back-button.ts).
 */

/** What Capacitor's shell puts on the page before its scripts run (Capacitor 8's `native-bridge.js`). */
interface CapacitorShell {
  Capacitor?: { isNativePlatform?: () => boolean };
  androidBridge?: unknown;
  webkit?: { messageHandlers?: { bridge?: unknown } };
}

/**
 * True inside the Capacitor Android/iOS shell, false in a browser: the shell's `Capacitor` says so,
 * else its bridge is looked for as `@capacitor/core` does (`androidBridge` on Android, the
 * `bridge` message handler on iOS). A page without `window` (the build's prerender) is the web.
 */
export function isNativePlatform(): boolean {
  if (typeof window === 'undefined') return false;
  const shell = window as unknown as CapacitorShell;
  try {
    if (typeof shell.Capacitor?.isNativePlatform === 'function') return shell.Capacitor.isNativePlatform();
    return Boolean(shell.androidBridge ?? shell.webkit?.messageHandlers?.bridge);
  } catch {
    return false;
  }
}

/**
 * The platform as the devices list names it: 'android' or 'ios' inside the Capacitor shell (its
 * `getPlatform`, else its bridge), 'web' in a browser (docs/decisions/116).
 */
export function platformName(): 'android' | 'ios' | 'web' {
  if (!isNativePlatform()) return 'web';
  const shell = window as unknown as CapacitorShell & { Capacitor?: { getPlatform?: () => string } };
  const named = typeof shell.Capacitor?.getPlatform === 'function' ? shell.Capacitor.getPlatform() : undefined;
  if (named === 'android' || named === 'ios') return named;
  return shell.androidBridge ? 'android' : 'ios';
}
