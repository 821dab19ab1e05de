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
}

/** Shows a toast with a title and an optional description. */
export function notify({ title, description, variant = 'info' }: Notice): void {
  const options = description === undefined ? {} : { description };
  if (variant === 'success') toast.success(title, options);
  else if (variant === 'error') toast.error(title, options);
  else toast(title, options);
}
