import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { useState, type ReactElement } from 'react';
import { TOOLTIP_DELAY_MS } from '@/config/constants.ts';

/**
 * A short hint shown on hover or keyboard focus after SPEC §9's 700 ms open delay. Each tooltip
 * brings its own provider, so Radix's tooltip code loads with the screens that show one, not with
 * the sign-in screen (issue 13 item 2; a screen has at most one tooltip). It repeats the control's accessible name
 * for sighted mouse users; touch users never see it and do not need it.
 *
 * Its open state is ours (controlled), so Radix announces the opening before the content exists and
 * never depends on when an effect runs relative to the content's listener (decision 063 found the
 * uncontrolled tooltip closing itself at once where effects run a frame late; kept on React, 081).
 */
export function Tooltip({ label, children }: { label: string; children: ReactElement }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS}>
      <TooltipPrimitive.Root open={isOpen} onOpenChange={setIsOpen}>
        <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
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
