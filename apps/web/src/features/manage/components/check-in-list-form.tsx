import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormNotice } from '@/components/form-notice.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import type { CheckInListFormValues } from '../check-in-list-logic.ts';
import { Field, FieldProblem } from './field.tsx';
import type { FieldProblems } from '../manage-logic.ts';
import { CheckGroup, CheckRow, DaysChoice } from './check-group.tsx';

/** The fields this form shows a problem next to. */
const FORM_FIELDS = ['name', 'ticketTypes', 'days', 'allowsReentry', 'capacity', 'dailyCheckoutTime'];

export interface CheckInListFormProps<R> {
  initial: CheckInListFormValues;
  /** The event's ticket type names (what a list can admit besides every type). */
  ticketTypes: readonly string[];
  /** The event's days (its implicit day 1 when it configures none). */
  days: ReadonlyArray<{ day: number; name: string }>;
  /** Checks the values with the contract's schema: the request, or each field's problem. */
  check(values: CheckInListFormValues): { request: R; problems?: undefined } | { request?: undefined; problems: FieldProblems };
  submitLabel: string;
  isPending: boolean;
  /** A refusal from the server: on its field (without `body.`), or for the form (`field` null). */
  refusal: { field: string | null; text: string } | null;
  onSubmit(request: R): void;
  onCancel(): void;
}

/**
 * A check-in list's form (docs/decisions/100, 111, 115): its name; the ticket types it admits (every
 * type, or some); the days (every day, or some); re-entry, capacity and daily checkout time.
 * Checked with the contract's schema before it is sent; every problem, and a server refusal that
 * names a field, is shown next to its field. The capacity's hint follows re-entry: without it no exit
 * is recorded, so the capacity limits the day's admissions, not the guests inside at once
 * (docs/decisions/151).
 */
export function CheckInListForm<R>({ initial, ticketTypes, days, check, submitLabel, isPending, refusal, onSubmit, onCancel }: CheckInListFormProps<R>) {
  const { t } = useTranslation();
  const idPrefix = useId();
  const id = (name: string) => `${idPrefix}-${name}`;
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<FieldProblems>({});
  const set = <K extends keyof CheckInListFormValues>(key: K, value: CheckInListFormValues[K], field: string = key) => {
    setValues((current) => ({ ...current, [key]: value }));
    setProblems((current) => Object.fromEntries(Object.entries(current).filter(([name]) => name !== field)));
  };
  const shown: FieldProblems = refusal?.field ? { ...problems, [refusal.field]: refusal.text } : problems;
  const toggle = <T,>(list: readonly T[], item: T, isOn: boolean) => (isOn ? [...list.filter((entry) => entry !== item), item] : list.filter((entry) => entry !== item));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = check(values);
    setProblems(checked.problems ?? {});
    if (checked.request !== undefined) onSubmit(checked.request);
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-5">
      <Field id={id('name')} label={t('manageLists.fields.name')} problem={shown.name}>
        {(control) => <Input {...control} value={values.name} onChange={(change) => set('name', change.target.value)} />}
      </Field>

      <CheckGroup id={id('ticketTypes')} legend={t('manageLists.fields.ticketTypes')} problem={shown.ticketTypes}>
        <Switch checked={values.isEveryType} onCheckedChange={(checked) => set('isEveryType', checked, 'ticketTypes')} hint={t('manageLists.everyTypeHint')}>
          {t('manageLists.everyType')}
        </Switch>
        {!values.isEveryType && ticketTypes.length === 0 && <p className="text-base text-slate-800">{t('manageLists.noTicketTypes')}</p>}
        {!values.isEveryType &&
          ticketTypes.map((type) => (
            <CheckRow key={type} checked={values.ticketTypes.includes(type)} onChange={(isOn) => set('ticketTypes', toggle(values.ticketTypes, type, isOn))}>
              {type}
            </CheckRow>
          ))}
      </CheckGroup>

      <DaysChoice
        id={id('days')}
        legend={t('manageLists.fields.days')}
        days={days}
        value={{ isEveryDay: values.isEveryDay, days: values.days }}
        problem={shown.days}
        onChange={(choice) => {
          set('isEveryDay', choice.isEveryDay, 'days');
          set('days', choice.days);
        }}
      />

      <div className="flex flex-col gap-2">
        <Switch
          checked={values.allowsReentry}
          onCheckedChange={(checked) => set('allowsReentry', checked)}
          hint={t('manageLists.reentryHint')}
          problemId={shown.allowsReentry ? `${id('allowsReentry')}-problem` : undefined}
        >
          {t('manageLists.fields.allowsReentry')}
        </Switch>
        <FieldProblem id={id('allowsReentry')} text={shown.allowsReentry} />
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field id={id('capacity')} label={t('manageLists.fields.capacity')} hint={t(values.allowsReentry ? 'manageLists.capacityHint' : 'manageLists.capacityHintNoReentry')} problem={shown.capacity}>
          {(control) => <Input {...control} inputMode="numeric" value={values.capacity} onChange={(change) => set('capacity', change.target.value)} />}
        </Field>
        <Field id={id('dailyCheckoutTime')} label={t('manageLists.fields.dailyCheckoutTime')} hint={t('manageLists.checkoutHint')} problem={shown.dailyCheckoutTime}>
          {(control) => <Input {...control} type="time" value={values.dailyCheckoutTime} onChange={(change) => set('dailyCheckoutTime', change.target.value)} />}
        </Field>
      </div>

      {Object.keys(problems).length > 0 && <FormNotice variant="error" title={t('manage.problems.fixFields')} />}
      {refusal && !(refusal.field !== null && FORM_FIELDS.includes(refusal.field)) && <FormNotice variant="error" title={refusal.text} />}
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button type="submit" disabled={isPending}>
          {isPending ? t('manage.saving') : submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t('manageLists.cancel')}
        </Button>
      </div>
    </form>
  );
}
