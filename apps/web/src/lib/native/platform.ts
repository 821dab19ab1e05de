/**
 * Which platform the app runs on. The ONLY place (with its siblings in lib/native) that imports
 * `@capacitor/*` (STYLE: Boundaries). Tests take the native paths through Capacitor's real Android
 * bridge (src/test/android-bridge.ts: `window.androidBridge` + `Capacitor.PluginHeaders`, answered
 * by a stand-in of the Java side), not by mocking this module.
 */
import { Capacitor } from '@capacitor/core';

/**
 * True inside the Capacitor Android/iOS shell, false in a browser (the web fallback: Capacitor's
 * web runtime reports false, and a failing bridge is treated as the web).
 */
export function isNativePlatform(): boolean {
  try {
    return Capacitor.isNativePlatform();
  } catch {
    return false;
  }
}
