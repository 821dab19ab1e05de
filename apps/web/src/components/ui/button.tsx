import type { ComponentProps } from 'react';
import { clsx } from 'clsx';

/** Component classes of index.css (`@layer components`): a caller's utilities override them. */
const variants = {
  primary: 'ui-button-primary',
  secondary: 'ui-button-secondary',
  danger: 'ui-button-danger',
  ghost: 'ui-button-ghost',
} as const;

const sizes = {
  /** 48 px tall: a comfortable touch target with gloves or in a hurry. */
  default: 'ui-button-default',
  large: 'ui-button-large',
  icon: 'ui-button-icon',
} as const;

/** How a button looks: its variant (default 'primary') and size (default 'default'). */
export interface ButtonLook {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
}

export interface ButtonProps extends ComponentProps<'button'>, ButtonLook {}

/**
 * The classes of a button of `look`, then the caller's `className`: for a link that looks like a
 * button (`<Link className={buttonClassName(...)}>`). No Radix Slot for that: it would weigh on the
 * sign-in screen's first load for the few links that need it (docs/decisions/082).
 */
export function buttonClassName({ variant = 'primary', size = 'default' }: ButtonLook, className?: string): string {
  return clsx('ui-button', variants[variant], sizes[size], className);
}

/** A button with large touch targets and a strong focus ring. */
export function Button({ variant, size, className, type, ...props }: ButtonProps) {
  return <button type={type ?? 'button'} className={buttonClassName({ variant, size }, className)} {...props} />;
}
