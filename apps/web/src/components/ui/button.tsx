import { Slot } from '@radix-ui/react-slot';
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
      className={clsx('ui-button', variants[variant], sizes[size], className)}
      {...props}
    />
  );
}
