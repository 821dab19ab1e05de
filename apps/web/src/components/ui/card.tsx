import type { ComponentProps } from 'react';
import { clsx } from 'clsx';

/**
 * A white surface with a strong border, readable in bright light.
 * Base classes: `.ui-card` in index.css (components layer), so a caller's `className` utilities win.
 */
export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={clsx('ui-card', className)} {...props} />;
}
