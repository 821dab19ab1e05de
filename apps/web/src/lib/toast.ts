/**
 * The one wrapper around the toast library (sonner). Screens call `notify`; the `<Toaster />` is
 * mounted once in the app providers.
 */
import { toast } from 'sonner';

export interface Notice {
  title: string;
  description?: string;
  /** 'success' (green), 'error' (red), 'info' (neutral, the default). */
  variant?: 'success' | 'error' | 'info';
  /** Toasts with the same id replace each other instead of stacking. */
  id?: string;
}

/** Shows a toast with a title and an optional description. */
export function notify({ title, description, variant = 'info', id }: Notice): void {
  const options = { ...(description === undefined ? {} : { description }), ...(id === undefined ? {} : { id }) };
  if (variant === 'success') toast.success(title, options);
  else if (variant === 'error') toast.error(title, options);
  else toast(title, options);
}
