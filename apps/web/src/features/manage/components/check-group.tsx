/**
 * Check boxes as the management forms use them: a group with its legend and problem, one row per
 * choice (48 px tall touch targets), and the days choice of a check-in list or ticket type — every
 * day, or some of the event's days.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Switch } from '@/components/ui/switch.tsx';
import { FieldProblem, fieldControlProps } from './field.tsx';

/** A group of check boxes with its legend and problem (`${id}-problem`, as `FieldProblem` renders it). */
export function CheckGroup({ id, legend, problem, children }: { id: string; legend: string; problem: string | undefined; children: ReactNode }) {
  // A group is described by its problem; aria-invalid belongs to its check boxes' roles, not to a group.
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={fieldControlProps(id, { problem })['aria-describedby']}>
      <legend className="mb-1 text-base font-semibold text-slate-900">{legend}</legend>
      {children}
      <FieldProblem id={id} text={problem} />
    </fieldset>
  );
}

/** One check box row, its label the touch target (48 px tall). */
export function CheckRow({ checked, onChange, children }: { checked: boolean; onChange(checked: boolean): void; children: ReactNode }) {
  return (
    <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border-2 border-slate-300 bg-white px-3 py-2 text-base text-slate-900 hover:bg-slate-100">
      <input type="checkbox" className="size-6 shrink-0 accent-blue-700" checked={checked} onChange={(change) => onChange(change.target.checked)} />
      <span className="min-w-0 break-words">{children}</span>
    </label>
  );
}

/** What a days choice holds: every day, or the day numbers checked. */
export interface DaysChoiceValue {
  isEveryDay: boolean;
  days: number[];
}

/**
 * Every day (a switch) or some of the event's `days` (a check box each), under `legend`, with its
 * problem. `hint` says what the choice means (shown under the switch).
 */
export function DaysChoice({
  legend,
  hint,
  days,
  value,
  id,
  problem,
  onChange,
}: {
  /** The group's id: its problem is `${id}-problem`. */
  id: string;
  legend: string;
  hint?: string | undefined;
  days: ReadonlyArray<{ day: number; name: string }>;
  value: DaysChoiceValue;
  problem: string | undefined;
  onChange(value: DaysChoiceValue): void;
}) {
  const { t } = useTranslation();
  const toggle = (day: number, isOn: boolean) => onChange({ ...value, days: isOn ? [...value.days.filter((entry) => entry !== day), day].sort((a, b) => a - b) : value.days.filter((entry) => entry !== day) });
  return (
    <CheckGroup id={id} legend={legend} problem={problem}>
      <Switch checked={value.isEveryDay} onCheckedChange={(checked) => onChange({ ...value, isEveryDay: checked })} {...(hint === undefined ? {} : { hint })}>
        {t('manageLists.everyDay')}
      </Switch>
      {!value.isEveryDay &&
        days.map((day) => (
          <CheckRow key={day.day} checked={value.days.includes(day.day)} onChange={(isOn) => toggle(day.day, isOn)}>
            {t('manage.dayRow', { number: day.day })} · {day.name}
          </CheckRow>
        ))}
    </CheckGroup>
  );
}
