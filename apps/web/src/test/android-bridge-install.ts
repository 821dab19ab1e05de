/**
 * Side-effect import for test files that need the native platform for every module: import it
 * FIRST, before anything that loads `@capacitor/*`. The stand-in is on `window.capacitorStandIn`
 * (see `standIn()`), with the default options (camera granted).
 */
import type { CapacitorStandIn } from './capacitor-stand-in.ts';
import { installAndroidBridge } from './android-bridge.ts';

installAndroidBridge();

/** The stand-in installed by this module. */
export function standIn(): CapacitorStandIn {
  return (globalThis as unknown as { capacitorStandIn: CapacitorStandIn }).capacitorStandIn;
}
