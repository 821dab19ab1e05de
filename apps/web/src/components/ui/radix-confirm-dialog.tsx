/**
 * The dialog of confirm-dialog.tsx on Radix Dialog (as an `alertdialog`), loaded once the screen
 * that may ask has rendered: modal, focus kept inside and put on the safe choice first, Escape or a
 * tap outside is the safe choice (a tap on a toast's close button is not outside: lib/toast.ts
 * `keepOpenOnToastTap`). Centred, at most 28 rem wide; its two buttons are full-width, stacked on a
 * phone, for gloved taps.
 */
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Button } from '@/components/ui/button.tsx';
import { keepOpenOnToastTap } from '@/lib/toast.ts';
import type { ConfirmDialogProps } from './confirm-dialog.tsx';

export default function RadixConfirmDialog({ open, onOpenChange, title, description, cancelLabel, confirmLabel, onConfirm }: ConfirmDialogProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <DialogPrimitive.Content
          role="alertdialog"
          onInteractOutside={keepOpenOnToastTap}
          className="fixed inset-x-4 top-1/2 z-50 mx-auto flex max-w-md -translate-y-1/2 flex-col gap-4 rounded-2xl border-2 border-slate-300 bg-slate-50 p-5 text-slate-900 shadow-xl"
        >
          <DialogPrimitive.Title className="text-xl font-bold text-slate-900">{title}</DialogPrimitive.Title>
          <DialogPrimitive.Description className="text-base text-slate-800">{description}</DialogPrimitive.Description>
          <div className="flex flex-col gap-3 sm:flex-row-reverse">
            <DialogPrimitive.Close asChild>
              <Button className="w-full">{cancelLabel}</Button>
            </DialogPrimitive.Close>
            <Button variant="danger" className="w-full" onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
