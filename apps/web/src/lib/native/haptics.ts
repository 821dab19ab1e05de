/**
 * Feeling a verdict (issue 9 item 4, issue 10 item 3): on the native app the device's haptic engine
 * plays its success or error pattern (`@capacitor/haptics` notification); in a browser
 * `navigator.vibrate` plays a short buzz for APPROVED and three longer ones for DENIED, so the two
 * differ by feel alone. Devices and browsers without vibration (iOS Safari, desktops) stay silent.
 */
import { Haptics, NotificationType } from '@capacitor/haptics';
import { isNativePlatform } from './platform.ts';

/** Web vibration patterns in ms (on, off, on …): one short pulse vs three long ones. */
export const VERDICT_VIBRATION_MS = {
  approved: [80],
  denied: [200, 80, 200, 80, 200],
} as const;

/**
 * Plays the verdict's vibration. Never throws and never waits for the pattern to end.
 * @param isApproved true for APPROVED, false for DENIED.
 */
export async function vibrateForVerdict(isApproved: boolean): Promise<void> {
  try {
    if (isNativePlatform()) {
      await Haptics.notification({ type: isApproved ? NotificationType.Success : NotificationType.Error });
      return;
    }
    if (typeof navigator.vibrate === 'function') navigator.vibrate([...(isApproved ? VERDICT_VIBRATION_MS.approved : VERDICT_VIBRATION_MS.denied)]);
  } catch {
    // No vibration on this device: the verdict is still shown and (if on) heard.
  }
}
