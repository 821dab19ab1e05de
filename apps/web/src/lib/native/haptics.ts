/**
 * Feeling a verdict (issue 9 item 4, issue 10 item 3, docs/decisions/102): on the native app the
 * device's haptic engine plays its success or error pattern (`@capacitor/haptics` notification),
 * and for an approval that needs attention its warning pattern followed by a long buzz; in a browser
 * `navigator.vibrate` plays a short buzz for APPROVED, three longer ones for DENIED and two short
 * taps then a long buzz for ATTENTION, so the three differ by feel alone. Devices and browsers
 * without vibration (iOS Safari, desktops) stay silent.
 */
import { Haptics, NotificationType } from '@capacitor/haptics';
import type { VerdictCue } from '../verdict-cue.ts';
import { isNativePlatform } from './platform.ts';

/** Web vibration patterns in ms (on, off, on …): one short pulse, three long ones, tap-tap-buzz. */
export const VERDICT_VIBRATION_MS = {
  approved: [80],
  denied: [200, 80, 200, 80, 200],
  attention: [80, 80, 80, 80, 600],
} as const satisfies Record<VerdictCue, readonly number[]>;

/** The long buzz after the native warning pattern of an attention approval, in ms (Android; iOS buzzes its own length). */
export const NATIVE_ATTENTION_BUZZ_MS = 600;

const NATIVE_NOTIFICATION: Record<VerdictCue, NotificationType> = {
  approved: NotificationType.Success,
  denied: NotificationType.Error,
  attention: NotificationType.Warning,
};

/**
 * Plays the vibration of `cue`. Never throws and never waits for the pattern to end.
 * @param cue 'approved', 'denied', or 'attention' (an approval staff must look at).
 */
export async function vibrateForVerdict(cue: VerdictCue): Promise<void> {
  try {
    if (isNativePlatform()) {
      await Haptics.notification({ type: NATIVE_NOTIFICATION[cue] });
      // The warning pattern alone is short and close to success on many phones: a long buzz after
      // it is felt through a glove and in a pocket.
      if (cue === 'attention') await Haptics.vibrate({ duration: NATIVE_ATTENTION_BUZZ_MS });
      return;
    }
    if (typeof navigator.vibrate === 'function') navigator.vibrate([...VERDICT_VIBRATION_MS[cue]]);
  } catch {
    // No vibration on this device: the verdict is still shown and (if on) heard.
  }
}
