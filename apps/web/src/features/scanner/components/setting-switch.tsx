import { useId } from 'react';
import { cn } from '@/lib/cn.ts';
import { useTranslation } from 'react-i18next';

interface SettingSwitchProps {
  /** The visible label, also the switch's accessible name. */
  label: string;
  /** A short line under the label (optional). */
  hint?: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}

/**
 * An on/off switch (WAI-ARIA `role="switch"` on a button, `aria-checked`): the whole row, label
 * included, is one touch target at least 48 px tall; Space and Enter toggle it (a native button).
 * Colour is not the only signal: the knob moves, and from 360 px up the state also reads 'On' / 'Off'
 * (below, the label keeps one line).
 */
export function SettingSwitch({ label, hint, checked, onCheckedChange }: SettingSwitchProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const hintId = useId();
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-labelledby={labelId}
      aria-describedby={hint === undefined ? undefined : hintId}
      onClick={() => onCheckedChange(!checked)}
      className={cn(
        'flex min-h-12 w-full items-center gap-3 rounded-xl border-2 border-slate-300 bg-white px-3 py-2 text-left',
        'focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
      )}
    >
      <span className="min-w-0 flex-1">
        <span id={labelId} className="block text-base font-semibold text-slate-900">
          {label}
        </span>
        {hint !== undefined && (
          <span id={hintId} className="block text-sm text-slate-700">
            {hint}
          </span>
        )}
      </span>
      <span aria-hidden="true" className="w-7 text-right text-sm font-semibold text-slate-800 max-[359px]:hidden">
        {checked ? t('common.on') : t('common.off')}
      </span>
      <span
        aria-hidden="true"
        className={cn('relative h-8 w-14 shrink-0 rounded-full transition-colors', checked ? 'bg-blue-700' : 'bg-slate-500')}
      >
        <span className={cn('absolute top-1 size-6 rounded-full bg-white shadow transition-[left]', checked ? 'left-7' : 'left-1')} />
      </span>
    </button>
  );
}
