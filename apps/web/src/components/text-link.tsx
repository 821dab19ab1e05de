import { Link, type LinkProps } from 'react-router';
import { clsx } from 'clsx';

/**
 * An in-app text link with a 44 px touch target and a strong focus ring.
 * Base classes: `.ui-text-link` in index.css (components layer), so a caller's `className` utilities win.
 */
export function TextLink({ className, ...props }: LinkProps) {
  return (
    <Link
      className={clsx('ui-text-link', className)}
      {...props}
    />
  );
}
