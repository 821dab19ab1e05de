import { Vibrate, Volume2 } from 'lucide-react';
import { Switch } from '@/components/ui/switch.tsx';
import { setFeedbackSetting, useFeedbackSettings } from '@/lib/feedback-settings.ts';

/**
 * The scanner panel's 'Sound' and 'Vibration' switches (issue 10 item 3): remembered on this device,
 * both on by default (lib/feedback-settings.ts). Each applies from the next verdict.
 */
export function FeedbackSwitches() {
  const { isSoundOn, isVibrationOn } = useFeedbackSettings();
  return (
    <div role="group" aria-label="Verdict feedback" className="grid gap-2 sm:grid-cols-2">
      <Switch isOn={isSoundOn} onChange={(isOn) => setFeedbackSetting('isSoundOn', isOn)}>
        <span className="flex items-center gap-2">
          <Volume2 aria-hidden="true" className="size-5 shrink-0" />
          Sound
        </span>
      </Switch>
      <Switch isOn={isVibrationOn} onChange={(isOn) => setFeedbackSetting('isVibrationOn', isOn)}>
        <span className="flex items-center gap-2">
          <Vibrate aria-hidden="true" className="size-5 shrink-0" />
          Vibration
        </span>
      </Switch>
    </div>
  );
}
