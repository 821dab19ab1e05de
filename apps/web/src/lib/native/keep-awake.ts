/**
 * The screen stays on while the scanner's camera runs (decision 091): staff aiming at tickets
 * should not have the phone go dark; once the camera stops (or the app goes to the background) the
 * phone's own sleep timeout applies again, so a phone left on the table does not drain its battery.
 * `@capacitor-community/keep-awake` on native; a browser is left to its own sleep settings.
 */
import { KeepAwake } from '@capacitor-community/keep-awake';
import { useEffect } from 'react';
import { isNativePlatform } from './platform.ts';

/** Keeps the screen on (true) or lets it sleep again (false). Never rejects. */
export async function setKeepAwake(isOn: boolean): Promise<void> {
  if (!isNativePlatform()) return;
  try {
    await (isOn ? KeepAwake.keepAwake() : KeepAwake.allowSleep());
  } catch {
    // A device that cannot keep the screen on still scans.
  }
}

/** While `isActive` (the camera runs), the screen stays on; off or unmounted, it may sleep. */
export function useKeepAwake(isActive: boolean): void {
  useEffect(() => {
    if (!isActive) return;
    void setKeepAwake(true);
    return () => void setKeepAwake(false);
  }, [isActive]);
}
