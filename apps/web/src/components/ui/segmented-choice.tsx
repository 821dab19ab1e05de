import type { LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { clsx } from 'clsx';
import { useIsHydrated } from '@/lib/use-is-hydrated.ts';

/** One segment: its value, its visible label, an optional icon before it and the label's language. */
export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
  icon?: LucideIcon;
  lang?: string;
}

/**
 * A row of mutually exclusive segments under a legend (the theme and language choices, issue 10).
 * Native radio buttons under the hood, so arrow keys, Tab and screen readers work as everywhere; each
 * radio is laid over its whole segment, so the tap target is the 44 px segment, not a 1 px dot.
 * Disabled in prerendered HTML until React hydrates it (a choice made before would not be heard).
 */
export function SegmentedChoice<T extends string>({
  legend,
  options,
  value,
  onChange,
  className,
}: {
  legend: string;
  options: ReadonlyArray<SegmentedOption<T>>;
  value: T;
  onChange: (value: T) => void;
  className?: string;
}) {
  const name = useId();
  const isHydrated = useIsHydrated();
  return (
    <fieldset disabled={!isHydrated} className={clsx('flex flex-wrap items-center justify-center gap-x-3 gap-y-1', className)}>
      <legend className="float-left text-base font-semibold text-slate-800">{legend}</legend>
      <div className="flex rounded-xl border-2 border-slate-300 bg-white p-0.5">
        {options.map(({ value: option, label, icon: Icon, lang }) => (
          <label
            key={option}
            lang={lang}
            className={clsx(
              'relative flex min-h-11 cursor-pointer items-center gap-1.5 rounded-lg px-3 text-base font-semibold has-[:focus-visible]:outline-4 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-600',
              value === option ? 'bg-slate-900 text-white' : 'text-slate-800 hover:bg-slate-100',
            )}
          >
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
              className="absolute inset-0 size-full cursor-pointer appearance-none rounded-lg opacity-0"
            />
            {Icon && <Icon aria-hidden="true" className="size-4 shrink-0" />}
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
