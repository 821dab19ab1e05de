/**
 * The scanner's 'Sound' and 'Vibration' switches (issue 10 item 3), remembered per device, both on
 * by default. Read when a verdict lands, so a change applies to the next verdict at once.
 */
import { z } from 'zod/mini';
import { createDeviceSetting, useDeviceSetting } from './device-setting.ts';

/** isSoundOn: play the verdict's tone; isVibrationOn: play its vibration / haptic pattern. */
export const FeedbackSettings = z.object({
  isSoundOn: z.boolean(),
  isVibrationOn: z.boolean(),
});
export type FeedbackSettings = z.infer<typeof FeedbackSettings>;

/** Both on until the steward turns one off (issue 10 item 3). */
export const DEFAULT_FEEDBACK_SETTINGS: FeedbackSettings = { isSoundOn: true, isVibrationOn: true };

/** Stored under 'gatecheck.feedback' in localStorage. */
export const feedbackSettings = createDeviceSetting('gatecheck.feedback', FeedbackSettings, DEFAULT_FEEDBACK_SETTINGS);

/** The current switches in a component. */
export function useFeedbackSettings(): FeedbackSettings {
  return useDeviceSetting(feedbackSettings);
}

/** Turns one switch on or off, keeping the other. */
export function setFeedbackSetting(name: keyof FeedbackSettings, isOn: boolean): void {
  feedbackSettings.write({ ...feedbackSettings.read(), [name]: isOn });
}
