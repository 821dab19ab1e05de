/**
 * A phone-sized sheet over the screen (Radix Dialog): modal, focus kept inside, Escape or the close
 * button dismisses it, focus returns to what opened it. It rises from the bottom on a phone and sits
 * centred, at most 36 rem wide, on a larger screen; its body scrolls when it is taller than the
 * screen (dvh, so the browser's bars are left out).
 */
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';

export interface SheetProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The sheet's heading (its accessible name). */
  title: string;
  /** The close button's accessible name. */
  closeLabel: string;
  children: ReactNode;
}

export function Sheet({ open, onOpenChange, title, closeLabel, children }: SheetProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <DialogPrimitive.Content
          // The search fields say what to do; no separate description.
          aria-describedby={undefined}
          className="fixed inset-x-0 bottom-0 z-50 mx-auto flex max-h-[92dvh] w-full max-w-xl flex-col rounded-t-2xl bg-slate-50 text-slate-900 shadow-xl sm:bottom-auto sm:top-1/2 sm:-translate-y-1/2 sm:rounded-2xl"
        >
          <div className="flex items-center gap-2 border-b border-slate-300 px-4 py-2">
            <DialogPrimitive.Title className="text-xl font-bold text-slate-900">{title}</DialogPrimitive.Title>
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="icon" className="ml-auto" aria-label={closeLabel}>
                <X aria-hidden="true" className="size-6" />
              </Button>
            </DialogPrimitive.Close>
          </div>
          <div className="overflow-y-auto overscroll-contain p-4">{children}</div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
