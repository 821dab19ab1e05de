import type { ComponentProps } from 'react';
import { clsx } from 'clsx';

/**
 * A form label in strong, readable text.
 * Base classes: `.ui-label` in index.css (components layer), so a caller's `className` utilities win.
 */
export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={clsx('ui-label', className)} {...props} />;
}
