import type { ReactNode } from 'react';
import { cn } from '@/lib/cn.ts';

export interface FormNoticeProps {
  /** 'error' is announced at once (role alert); 'success' politely (role status). */
  variant: 'error' | 'success';
  /** The SPEC §8 text (or the server's message). */
  title: string;
  children?: ReactNode;
}

/** The outcome of an account form, on the screen in large, high-contrast text (not only a toast). */
export function FormNotice({ variant, title, children }: FormNoticeProps) {
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cn(
        'rounded-xl border-2 px-4 py-3 text-base',
        variant === 'error' ? 'border-red-800 bg-red-50 text-red-900' : 'border-green-800 bg-green-50 text-green-900',
      )}
    >
      <p className="font-semibold">{title}</p>
      {children && <div className="mt-1">{children}</div>}
    </div>
  );
}
