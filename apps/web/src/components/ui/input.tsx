import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.ts';

/** A text input with a large touch target; pair it with a `<Label htmlFor>`. */
export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'min-h-12 w-full rounded-xl border-2 border-slate-400 bg-white px-4 text-base text-slate-900 placeholder:text-slate-500',
        'focus-visible:border-blue-700 focus-visible:outline-4 focus-visible:outline-offset-1 focus-visible:outline-blue-600',
        'disabled:opacity-60',
        className,
      )}
      {...props}
    />
  );
}
