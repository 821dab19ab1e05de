import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.ts';

/** A form label in strong, readable text. */
export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('block text-base font-semibold text-slate-900', className)} {...props} />;
}
