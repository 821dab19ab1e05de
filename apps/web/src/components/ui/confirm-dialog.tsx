/**
 * A question before something that cannot be taken back: modal, focus kept inside and put on the
 * safe choice first, Escape or a tap outside is the safe choice (a tap on a toast's close button is
 * not outside: lib/toast.ts `keepOpenOnToastTap`). Centred, at most 28 rem wide; its two buttons are
 * full-width, stacked on a phone, for gloved taps. Android's back button is the safe choice too
 * (lib/native/back-button.ts).
 *
 * Radix Dialog (radix-confirm-dialog.tsx) loads once the screen that may ask has rendered, not with
 * it (docs/decisions/119): a closed dialog shows nothing, so the screen looks the same either way.
 * Opened before that code has arrived, the dialog shows when it has.
 */
import { lazy, Suspense } from 'react';
import { useBackButtonClosesDialog } from '@/lib/native/back-button.ts';

export interface ConfirmDialogProps {
  open: boolean;
  /** Called with false when the safe choice, Escape or a tap outside closes it. */
  onOpenChange(open: boolean): void;
  /** The heading (the dialog's accessible name). */
  title: string;
  /** What is at stake, in plain words (the dialog's accessible description). */
  description: string;
  /** The safe choice's label: it closes the dialog and has the focus when it opens. */
  cancelLabel: string;
  /** The label of the action asked about. */
  confirmLabel: string;
  onConfirm(): void;
}

const RadixConfirmDialog = lazy(() => import('./radix-confirm-dialog.tsx'));

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, onOpenChange } = props;
  // Android's back button closes it first, as Escape does (lib/native/back-button.ts).
  useBackButtonClosesDialog(open, () => onOpenChange(false));
  return (
    <Suspense fallback={null}>
      <RadixConfirmDialog {...props} />
    </Suspense>
  );
}
