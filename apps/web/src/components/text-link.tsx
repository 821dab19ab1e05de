import { Link, type LinkProps } from 'react-router';
import { cn } from '@/lib/cn.ts';

/** An in-app text link with a 44 px touch target and a strong focus ring. */
export function TextLink({ className, ...props }: LinkProps) {
  return (
    <Link
      className={cn(
        'inline-flex min-h-11 items-center text-base font-semibold text-blue-800 underline underline-offset-4',
        'focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
        className,
      )}
      {...props}
    />
  );
}
