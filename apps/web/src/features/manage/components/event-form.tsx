import { EventStatus } from '@gatecheck/contract/organizations';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormNotice } from '@/components/form-notice.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { Field, FieldProblem } from './field.tsx';
import { checkEventForm, type EventFormValues, type FieldProblems, nextDayRow, statusWords } from '../manage-logic.ts';
import type { EventRequest } from '@gatecheck/contract/event-management';

export interface EventFormProps {
  initial: EventFormValues;
  /** The button's words ('Create event', 'Save changes'). */
  submitLabel: string;
  isPending: boolean;
  /** A refusal from the server: on its field, or for the form (`field` null). */
  refusal: { field: string | null; text: string } | null;
  onSubmit(request: EventRequest): void;
}

/** Whether a refusal's field is one this form shows next to a control (else the form says it as a whole). */
function isFormField(field: string | null): boolean {
  return field !== null && (field.startsWith('days') || ['title', 'description', 'date', 'location', 'status', 'timeZone', 'dayCutoff', 'capacity'].includes(field));
}

/** The IANA zones this platform knows, with `current` among them. */
function timeZoneChoices(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([current, 'UTC', ...known])].sort();
}

/**
 * The event form of the management area: title, description, date, location, status, time zone,
 * day cut-off, scanning outside the days, and the days (number, name, date; 'Add day', 'Remove'
 * except on a day with check-ins). Checked with the contract's schema before it is sent; every
 * problem, and a server refusal that names a field, is shown next to its field.
 */
export function EventForm({ initial, submitLabel, isPending, refusal, onSubmit }: EventFormProps) {
  const { t } = useTranslation();
  const idPrefix = useId();
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<FieldProblems>({});
  const zones = useMemo(() => timeZoneChoices(values.timeZone), [values.timeZone]);
  // A field's problem goes once the field is changed; the next 'Save' checks it again.
  const clearProblems = (isCleared: (field: string) => boolean) =>
    setProblems((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !isCleared(field))));
  const set = <K extends keyof EventFormValues>(key: K, value: EventFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    clearProblems((field) => field === key);
  };
  const setDay = (index: number, change: Partial<EventFormValues['days'][number]>) => {
    setValues((current) => ({ ...current, days: current.days.map((day, at) => (at === index ? { ...day, ...change } : day)) }));
    clearProblems((field) => Object.keys(change).some((key) => field === `days.${index}.${key}`));
  };
  /** Adds or removes a row: the rows after it move, so their problems (keyed by place) go. */
  const setDays = (days: (current: EventFormValues['days'], values: EventFormValues) => EventFormValues['days']) => {
    setValues((current) => ({ ...current, days: days(current.days, current) }));
    clearProblems((field) => field.startsWith('days'));
  };

  const shown: FieldProblems = refusal?.field ? { ...problems, [refusal.field]: refusal.text } : problems;
  const id = (name: string) => `${idPrefix}-${name}`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkEventForm(values);
    setProblems(checked.problems ?? {});
    if (checked.request) onSubmit(checked.request);
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-5">
      <Field id={id('title')} label={t('manage.fields.title')} problem={shown.title}>
        {(control) => <Input {...control} value={values.title} onChange={(change) => set('title', change.target.value)} required />}
      </Field>
      <Field id={id('description')} label={t('manage.fields.description')} problem={shown.description}>
        {(control) => (
          <textarea
            {...control}
            className="ui-input min-h-24 py-3"
            value={values.description}
            onChange={(change) => set('description', change.target.value)}
          />
        )}
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id={id('date')} label={t('manage.fields.date')} hint={t('manage.dateHint')} problem={shown.date}>
          {(control) => <Input {...control} type="date" value={values.date} onChange={(change) => set('date', change.target.value)} required />}
        </Field>
        <Field id={id('location')} label={t('manage.fields.location')} problem={shown.location}>
          {(control) => <Input {...control} value={values.location} onChange={(change) => set('location', change.target.value)} />}
        </Field>
      </div>
      <Field id={id('status')} label={t('manage.fields.status')} hint={t('manage.statusHint')} problem={shown.status}>
        {(control) => (
          <select {...control} className="ui-input" value={values.status} onChange={(change) => set('status', EventStatus.parse(change.target.value))}>
            {EventStatus.options.map((status) => (
              <option key={status} value={status}>
                {statusWords(status)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id={id('timeZone')} label={t('manage.fields.timeZone')} problem={shown.timeZone}>
          {(control) => (
            <select {...control} className="ui-input" value={values.timeZone} onChange={(change) => set('timeZone', change.target.value)}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id={id('dayCutoff')} label={t('manage.fields.dayCutoff')} hint={t('manage.dayCutoffHint')} problem={shown.dayCutoff}>
          {(control) => <Input {...control} type="time" value={values.dayCutoff} onChange={(change) => set('dayCutoff', change.target.value)} required />}
        </Field>
      </div>
      <Field id={id('capacity')} label={t('manage.fields.capacity')} hint={t('manage.capacityHint')} problem={shown.capacity}>
        {(control) => <Input {...control} inputMode="numeric" value={values.capacity} onChange={(change) => set('capacity', change.target.value)} />}
      </Field>
      <Switch checked={values.allowsScanningOutsideDays} onCheckedChange={(checked) => set('allowsScanningOutsideDays', checked)} hint={t('manage.scanOutsideDaysHint')}>
        {t('manage.fields.allowsScanningOutsideDays')}
      </Switch>

      <fieldset className="flex flex-col gap-4 rounded-2xl border-2 border-slate-200 p-4" aria-describedby={shown.days ? id('days-problem') : undefined}>
        <legend className="px-1 text-lg font-bold text-slate-900">{t('manage.fields.days')}</legend>
        {values.days.length === 0 && <p className="text-base text-slate-700">{t('manage.noDays')}</p>}
        {values.days.map((day, index) => (
          <fieldset key={day.key} className="flex flex-col gap-3 rounded-xl border-2 border-slate-200 bg-slate-50 p-3">
            <legend className="px-1 text-base font-semibold text-slate-900">{t('manage.dayRow', { number: index + 1 })}</legend>
            <div className="grid grid-cols-[5rem_1fr] gap-3">
              <Field id={id(`days.${index}.day`)} label={t('manage.fields.dayNumber')} problem={shown[`days.${index}.day`]}>
                {(control) => (
                  <Input {...control} inputMode="numeric" value={day.day} onChange={(change) => setDay(index, { day: change.target.value })} />
                )}
              </Field>
              <Field id={id(`days.${index}.name`)} label={t('manage.fields.dayName')} problem={shown[`days.${index}.name`]}>
                {(control) => <Input {...control} value={day.name} onChange={(change) => setDay(index, { name: change.target.value })} />}
              </Field>
            </div>
            <Field id={id(`days.${index}.date`)} label={t('manage.fields.dayDate')} problem={shown[`days.${index}.date`]}>
              {(control) => <Input {...control} type="date" value={day.date} onChange={(change) => setDay(index, { date: change.target.value })} />}
            </Field>
            {day.checkIns > 0 ? (
              <p className="text-base text-slate-800">{t('manage.dayKeptForCheckIns', { count: day.checkIns })}</p>
            ) : (
              <Button variant="secondary" onClick={() => setDays((days) => days.filter((_, at) => at !== index))}>
                <Trash2 aria-hidden="true" className="size-5" />
                {t('manage.removeDay', { number: index + 1 })}
              </Button>
            )}
          </fieldset>
        ))}
        <FieldProblem id={id('days')} text={shown.days} />
        <Button variant="secondary" onClick={() => setDays((days, current) => [...days, nextDayRow(current)])}>
          <Plus aria-hidden="true" className="size-5" />
          {t('manage.addDay')}
        </Button>
      </fieldset>

      {Object.keys(problems).length > 0 && <FormNotice variant="error" title={t('manage.problems.fixFields')} />}
      {refusal && !isFormField(refusal.field) && <FormNotice variant="error" title={refusal.text} />}
      <Button type="submit" size="large" disabled={isPending}>
        {isPending ? t('manage.saving') : submitLabel}
      </Button>
    </form>
  );
}
