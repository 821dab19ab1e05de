/**
 * Which platform the app runs on. The ONLY place (with its siblings in lib/native) that imports
 * `@capacitor/*` (STYLE: Boundaries); tests mock this module to take the native paths.
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
