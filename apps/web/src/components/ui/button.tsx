import { Slot } from '@radix-ui/react-slot';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.ts';

const variants = {
  primary: 'bg-blue-700 text-white hover:bg-blue-800 active:bg-blue-900',
  secondary: 'border-2 border-slate-300 bg-white text-slate-900 hover:bg-slate-100 active:bg-slate-200',
  danger: 'bg-red-700 text-white hover:bg-red-800 active:bg-red-900',
  ghost: 'bg-transparent text-slate-900 hover:bg-slate-200 active:bg-slate-300',
} as const;

const sizes = {
  /** 48 px tall: a comfortable touch target with gloves or in a hurry. */
  default: 'min-h-12 px-5 text-base',
  large: 'min-h-14 px-6 text-lg',
  icon: 'size-12',
} as const;

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /** Render the child element (for example a link) with button styling. */
  asChild?: boolean;
}

/** A button with large touch targets and a strong focus ring. */
export function Button({ variant = 'primary', size = 'default', asChild = false, className, type, ...props }: ButtonProps) {
  const Component = asChild ? Slot : 'button';
  return (
    <Component
      type={asChild ? undefined : (type ?? 'button')}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-xl font-semibold transition-colors',
        'focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
        'disabled:cursor-not-allowed disabled:opacity-60',
        variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    />
  );
}
