import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import type { ReactElement } from 'react';

/**
 * A short hint shown on hover or keyboard focus after the provider's open delay (SPEC §9: 700 ms,
 * set once on `Tooltip.Provider` in the app providers). It repeats the control's accessible name
 * for sighted mouse users; touch users never see it and do not need it.
 */
export function Tooltip({ label, children }: { label: string; children: ReactElement }) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content sideOffset={6} className="z-50 rounded-lg bg-slate-900 px-3 py-2 text-sm font-semibold text-white shadow-lg">
          {label}
          <TooltipPrimitive.Arrow className="fill-slate-900" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
