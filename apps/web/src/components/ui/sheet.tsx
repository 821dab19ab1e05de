/**
 * A phone-sized sheet over the screen (Radix Dialog): modal, focus kept inside, Escape, the close
 * button or a tap outside dismisses it (a tap on a toast's close button is not outside: lib/toast.ts
 * `keepOpenOnToastTap`), focus returns to what opened it. On a phone it rises from the bottom to 5.5 rem
 * under the top of the screen (dvh, so the browser's bars are left out), leaving the screen's top in
 * sight, and room there for the toasts while it is open (decision 093); on a larger screen it sits
 * centred, at most 36 rem wide. Its body scrolls. Android's back button closes it, as Escape does
 * (lib/native/back-button.ts).
 */
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { useBackButtonClosesDialog } from '@/lib/native/back-button.ts';
import { keepOpenOnToastTap } from '@/lib/toast.ts';

export interface SheetProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The sheet's heading (its accessible name). */
  title: string;
  /** The close button's accessible name. */
  closeLabel: string;
  /** The button that opens the sheet (one element); focus goes back to it when the sheet closes. */
  trigger: ReactNode;
  children: ReactNode;
}

export function Sheet({ open, onOpenChange, title, closeLabel, trigger, children }: SheetProps) {
  // Android's back button closes it first, as Escape does (lib/native/back-button.ts).
  useBackButtonClosesDialog(open, () => onOpenChange(false));
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <DialogPrimitive.Content
          // The search fields say what to do; no separate description.
          aria-describedby={undefined}
          onInteractOutside={keepOpenOnToastTap}
          className="fixed inset-x-0 bottom-0 z-50 mx-auto flex h-[calc(100dvh-5.5rem-var(--safe-top,0px))] w-full max-w-xl flex-col rounded-t-2xl border-t-2 border-slate-300 bg-slate-50 text-slate-900 shadow-xl sm:bottom-auto sm:top-1/2 sm:h-auto sm:max-h-[88dvh] sm:-translate-y-1/2 sm:rounded-2xl"
        >
          <div className="flex items-center gap-2 border-b border-slate-300 px-4 py-2">
            <DialogPrimitive.Title className="text-xl font-bold text-slate-900">{title}</DialogPrimitive.Title>
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="icon" className="ml-auto" aria-label={closeLabel}>
                <X aria-hidden="true" className="size-6" />
              </Button>
            </DialogPrimitive.Close>
          </div>
          {/* The bottom padding keeps the last rows above the system's gesture bar (decision 091). */}
          <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain p-4 pb-[calc(var(--safe-bottom)+1rem)]">{children}</div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
