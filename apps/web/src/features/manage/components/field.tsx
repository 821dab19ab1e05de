/**
 * The management forms' one way to show a field and its problem (events, tickets, check-in lists):
 * the label above the control, an optional hint under it, and the problem under that in red. The
 * control is described by its hint and its problem (`aria-describedby`, in that order) and marked
 * `aria-invalid` while it has a problem, so a screen reader says what is wrong when it reaches the
 * field, not only the form's summary.
 */
import type { ReactNode } from 'react';
import { Label } from '@/components/ui/label.tsx';

/** What a field's control takes: its id, what describes it, and whether it holds a problem. */
export interface FieldControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/**
 * The control props of the field with id `id`: described by `${id}-hint` when it has a hint and by
 * `${id}-problem` while `problem` is a text (what `FieldProblem` renders).
 */
export function fieldControlProps(id: string, { hasHint = false, problem }: { hasHint?: boolean; problem: string | null | undefined }): FieldControlProps {
  const describedBy = [hasHint ? `${id}-hint` : null, problem ? `${id}-problem` : null].filter(Boolean).join(' ');
  return { id, 'aria-describedby': describedBy === '' ? undefined : describedBy, 'aria-invalid': problem ? true : undefined };
}

/** The problem of the field (or group) with id `id`, as `${id}-problem`; nothing without one. */
export function FieldProblem({ id, text }: { id: string; text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p id={`${id}-problem`} className="text-base font-semibold text-red-800 dark:text-red-300">
      {text}
    </p>
  );
}

/** A labelled control (`children` renders it with the props it is given), its hint and its problem under it. */
export function Field({ id, label, hint, problem, children }: { id: string; label: string; hint?: string; problem: string | null | undefined; children(control: FieldControlProps): ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children(fieldControlProps(id, { hasHint: hint !== undefined, problem }))}
      {hint !== undefined && (
        <p id={`${id}-hint`} className="text-sm text-slate-700">
          {hint}
        </p>
      )}
      <FieldProblem id={id} text={problem} />
    </div>
  );
}
