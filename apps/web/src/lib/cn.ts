import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names; later Tailwind classes win over earlier conflicting ones (tailwind-merge, about
 * 9.5 kB gzip). The components of the sign-in screen (button, input, card, label, text link,
 * segmented choice) do not use it: their base classes are component classes in index.css, which a
 * caller's utilities override by the cascade, so tailwind-merge stays off the first load (issue 13,
 * docs/decisions/061). Components that load later use `cn`.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
