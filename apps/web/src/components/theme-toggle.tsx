import { Monitor, Moon, Sun, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn.ts';
import { themePreference, useThemePreference, type ThemePreference } from '@/lib/theme.ts';

const choices: Array<{ value: ThemePreference; labelKey: 'theme.system' | 'theme.light' | 'theme.dark'; icon: LucideIcon }> = [
  { value: 'system', labelKey: 'theme.system', icon: Monitor },
  { value: 'light', labelKey: 'theme.light', icon: Sun },
  { value: 'dark', labelKey: 'theme.dark', icon: Moon },
];

/**
 * 'Theme': System / Light / Dark (issue 10 item 8), remembered on this device (lib/theme.ts). Native
 * radio buttons under the hood, so arrow keys, Tab and screen readers work as they do everywhere.
 * Shown at the foot of the login screen and of every signed-in screen.
 */
export function ThemeToggle({ className }: { className?: string }) {
  const { t } = useTranslation();
  const preference = useThemePreference();
  const name = useId();
  return (
    <fieldset className={cn('flex flex-wrap items-center justify-center gap-x-3 gap-y-1', className)}>
      <legend className="float-left text-base font-semibold text-slate-800">{t('theme.legend')}</legend>
      <div className="flex rounded-xl border-2 border-slate-300 bg-white p-0.5">
        {choices.map(({ value, labelKey, icon: Icon }) => (
          <label
            key={value}
            className={cn(
              'relative flex min-h-11 cursor-pointer items-center gap-1.5 rounded-lg px-3 text-base font-semibold has-[:focus-visible]:outline-4 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-600',
              preference === value ? 'bg-slate-900 text-white' : 'text-slate-800 hover:bg-slate-100',
            )}
          >
            <input
              type="radio"
              name={name}
              value={value}
              checked={preference === value}
              onChange={() => themePreference.write(value)}
              // Laid over the whole label: the tap target is the 44 px segment, not a 1 px dot.
              className="absolute inset-0 size-full cursor-pointer appearance-none rounded-lg opacity-0"
            />
            <Icon aria-hidden="true" className="size-4 shrink-0" />
            {t(labelKey)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
