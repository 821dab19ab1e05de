import { Vibrate, Volume2 } from 'lucide-react';
import { Switch } from '@/components/ui/switch.tsx';
import { useDeviceSettings } from '@/lib/device-settings.ts';
import { useTranslation } from 'react-i18next';

/**
 * The scanner panel's 'Sound' and 'Vibration' switches (issue 10 item 3): remembered on this device,
 * both on by default (lib/device-settings.ts). Each applies from the next verdict.
 */
export function FeedbackSwitches() {
  const { t } = useTranslation();
  const { settings, update } = useDeviceSettings();
  const { isSoundOn, isVibrationOn } = settings;
  return (
    <div role="group" aria-label={t('scanner.verdictFeedback')} className="grid gap-2 sm:grid-cols-2">
      <Switch checked={isSoundOn} onCheckedChange={(isOn) => update({ isSoundOn: isOn })}>
        <span className="flex items-center gap-2">
          <Volume2 aria-hidden="true" className="size-5 shrink-0" />
          {t('scanner.sound')}
        </span>
      </Switch>
      <Switch checked={isVibrationOn} onCheckedChange={(isOn) => update({ isVibrationOn: isOn })}>
        <span className="flex items-center gap-2">
          <Vibrate aria-hidden="true" className="size-5 shrink-0" />
          {t('scanner.vibration')}
        </span>
      </Switch>
    </div>
  );
}
