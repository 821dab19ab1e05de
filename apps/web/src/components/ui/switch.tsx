import * as SwitchPrimitive from '@radix-ui/react-switch';
import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/cn.ts';
import { useTranslation } from 'react-i18next';

export interface SwitchProps {
  /** The visible label, also the switch's accessible name (an icon beside it is fine: mark it aria-hidden). */
  children: ReactNode;
  /** A short line under the label, read as the switch's description (optional). */
  hint?: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** The id of a problem shown with the switch (a form's refusal of it): read after the hint, and the switch is marked invalid. */
  problemId?: string | undefined;
}

/**
 * The app's one on/off switch (issue 10: 'Continuous scanning', 'Sound', 'Vibration'), on Radix's
 * Switch: a `<button role="switch" aria-checked>` that Space and Enter toggle. The whole row, label
 * included, is the button — one touch target at least 48 px tall; its accessible name is the label
 * alone (`aria-labelledby`), the hint its description. Colour is never the only signal: the knob moves, and from 360 px up the state also reads
 * 'On' / 'Off' (below, the label keeps one line).
 */
export function Switch({ children, hint, checked, onCheckedChange, problemId }: SwitchProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const hintId = useId();
  return (
    <SwitchPrimitive.Root
      checked={checked}
      onCheckedChange={onCheckedChange}
      aria-labelledby={labelId}
      aria-describedby={[hint === undefined ? null : hintId, problemId ?? null].filter(Boolean).join(' ') || undefined}
      aria-invalid={problemId === undefined ? undefined : true}
      className={cn(
        'flex min-h-12 w-full items-center gap-3 rounded-xl border-2 border-slate-300 bg-white px-3 py-2 text-left hover:bg-slate-100',
        'focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
      )}
    >
      <span className="min-w-0 flex-1">
        <span id={labelId} className="block text-base font-semibold text-slate-900">
          {children}
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
      <span aria-hidden="true" className={cn('relative h-8 w-14 shrink-0 rounded-full transition-colors', checked ? 'bg-blue-700' : 'bg-slate-500')}>
        <SwitchPrimitive.Thumb className="absolute top-1 left-1 block size-6 rounded-full bg-white shadow transition-[left] data-[state=checked]:left-7" />
      </span>
    </SwitchPrimitive.Root>
  );
}
