import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn.ts';
import { activeLanguage, chooseLanguage, type Language } from '@/lib/i18n/index.ts';

/** Each language named in its own words, so a visitor finds theirs whatever is shown now. */
const choices: Array<{ value: Language; label: string }> = [
  { value: 'en', label: 'English' },
  { value: 'de', label: 'Deutsch' },
];

/**
 * 'Language': English / Deutsch (issue 10 item 9), remembered on this device (lib/i18n). Built like
 * the theme toggle (native radios: arrow keys, Tab and screen readers work) and shown next to it.
 */
export function LanguageToggle({ className }: { className?: string }) {
  const { t } = useTranslation();
  const name = useId();
  const current = activeLanguage();
  return (
    <fieldset className={cn('flex flex-wrap items-center justify-center gap-x-3 gap-y-1', className)}>
      <legend className="float-left text-base font-semibold text-slate-800">{t('language.legend')}</legend>
      <div className="flex rounded-xl border-2 border-slate-300 bg-white p-0.5">
        {choices.map(({ value, label }) => (
          <label
            key={value}
            lang={value}
            className={cn(
              'relative flex min-h-11 cursor-pointer items-center rounded-lg px-3 text-base font-semibold has-[:focus-visible]:outline-4 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-600',
              current === value ? 'bg-slate-900 text-white' : 'text-slate-800 hover:bg-slate-100',
            )}
          >
            <input
              type="radio"
              name={name}
              value={value}
              checked={current === value}
              onChange={() => void chooseLanguage(value)}
              // Laid over the whole label: the tap target is the 44 px segment, not a 1 px dot.
              className="absolute inset-0 size-full cursor-pointer appearance-none rounded-lg opacity-0"
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
