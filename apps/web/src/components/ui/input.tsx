import type { ComponentProps } from 'react';
import { clsx } from 'clsx';

/**
 * A text input with a large touch target; pair it with a `<Label htmlFor>`.
 * Base classes: `.ui-input` in index.css (components layer), so a caller's `className` utilities win.
 */
export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={clsx('ui-input', className)}
      {...props}
    />
  );
}
