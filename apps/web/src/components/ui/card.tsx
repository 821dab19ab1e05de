import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.ts';

/** A white surface with a strong border, readable in bright light. */
export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('rounded-2xl border-2 border-slate-200 bg-white p-5 text-slate-900 shadow-sm', className)} {...props} />;
}
