/**
 * The tooltip of tooltip.tsx on Radix's tooltip, loaded when a mouse or a keyboard first comes to
 * the control (docs/decisions/128): the hint after SPEC §9's 700 ms open delay, above the control.
 *
 * Its open state is ours (controlled), so Radix announces the opening before the content exists and
 * never depends on when an effect runs relative to the content's listener (decision 063 found the
 * uncontrolled tooltip closing itself at once where effects run a frame late; kept on React, 081).
 * Each tooltip brings its own provider (a screen has at most one).
 */
import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { TOOLTIP_DELAY_MS } from '@/config/constants.ts';

export function RadixTooltip({ label, focusOnMount, children }: { label: string; focusOnMount: boolean; children: ReactElement }) {
  const [isOpen, setIsOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  // The control had keyboard focus when this replaced it: it keeps it (Radix then opens on focus, as always).
  useEffect(() => {
    if (focusOnMount) triggerRef.current?.focus();
    // Once, for the control this replaced.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS}>
      <TooltipPrimitive.Root open={isOpen} onOpenChange={setIsOpen}>
        <TooltipPrimitive.Trigger asChild ref={triggerRef}>
          {children}
        </TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content sideOffset={6} className="z-50 rounded-lg bg-slate-900 px-3 py-2 text-sm font-semibold text-white shadow-lg">
            {label}
            <TooltipPrimitive.Arrow className="fill-slate-900" />
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipPrimitive.Provider>
  );
}
