import { Monitor, Moon, Sun } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { chooseTheme, useThemePreference, type ThemePreference } from '@/lib/theme.ts';
import { SegmentedChoice } from './ui/segmented-choice.tsx';

/**
 * 'Theme': System / Light / Dark (issue 10 item 8), remembered on this device (lib/theme.ts). Shown
 * at the foot of the login screen and of every signed-in screen.
 */
export function ThemeToggle({ className }: { className?: string }) {
  const { t } = useTranslation();
  const preference = useThemePreference();
  const options = [
    { value: 'system' as ThemePreference, label: t('theme.system'), icon: Monitor },
    { value: 'light' as ThemePreference, label: t('theme.light'), icon: Sun },
    { value: 'dark' as ThemePreference, label: t('theme.dark'), icon: Moon },
  ];
  return <SegmentedChoice legend={t('theme.legend')} options={options} value={preference} onChange={chooseTheme} className={className} />;
}
