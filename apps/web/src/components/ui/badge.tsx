import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.ts';

/** A small label; colours come from the caller (always with enough contrast for its text). */
export function Badge({ className, ...props }: ComponentProps<'span'>) {
  return (
    <span
      className={cn('inline-flex items-center rounded-full border px-3 py-1 text-sm font-bold', 'border-slate-300 bg-slate-100 text-slate-900', className)}
      {...props}
    />
  );
}
