import type { ComponentProps } from 'react';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';

export interface FormFieldProps extends ComponentProps<'input'> {
  id: string;
  label: string;
  /** A rule shown under the field before submit (e.g. the password policy), tied to it by aria-describedby. */
  hint?: string;
}

/** A labelled input of the account forms, with an optional hint read out with the field. */
export function FormField({ id, label, hint, ...inputProps }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-describedby={hintId} {...inputProps} />
      {hint && (
        <p id={hintId} className="text-base text-slate-700">
          {hint}
        </p>
      )}
    </div>
  );
}
