/**
 * The one wrapper around the toast library (sonner). Screens call `notify`; the `<Toaster />` is
 * mounted once in the app providers.
 *
 * A toast belongs to the screen it was raised on: when the app shows another screen, the toasts that
 * no longer apply are dismissed (`dismissScreenToasts`, called by the router's root on every screen
 * change), so a 'Login failed' never hangs over the screen a later sign-in opened (issue 15 item 7).
 * A toast that announces the step to the next screen ('Organization Selected', …) is raised with
 * `scope: 'next-screen'` and stays through that step.
 */
import { createElement, type ReactNode } from 'react';
import { toast } from 'sonner';

/** How long a brief toast stays, in ms (sonner's default, 4 s, for the others). */
const BRIEF_TOAST_MS = 2_000;

export interface Notice {
  title: string;
  description?: string;
  /** 'success' (green), 'error' (red), 'info' (neutral, the default). */
  variant?: 'success' | 'error' | 'info';
  /** Toasts with the same id replace each other instead of stacking. */
  id?: string;
  /**
   * 'screen' (the default): dismissed when the app moves to another screen. 'next-screen': raised
   * just before a step to another screen, it stays on that screen and is dismissed after it.
   * 'app': news about the app itself (a new version), kept until it is acted on or closed.
   */
  scope?: 'screen' | 'next-screen' | 'app';
  /** A button in the toast (for example 'Reload'); its click also closes the toast. */
  action?: { label: string; onClick: () => void };
  /** Stays 2 s instead of 4 s: a confirmation staff need not read to go on. */
  isBrief?: boolean;
  /**
   * false: shown but not read out by screen readers (the toaster is a live region), for a toast
   * whose news another live region already announces, such as the verdict (decision 035). Default true.
   */
  isAnnounced?: boolean;
}

type ToastId = string | number;

let screenToasts = new Set<ToastId>();
let nextScreenToasts = new Set<ToastId>();

/** Shows a toast with a title and an optional description. */
export function notify({ title, description, variant = 'info', id, scope = 'screen', isBrief = false, isAnnounced = true, action }: Notice): void {
  const text = (words: string): ReactNode => (isAnnounced ? words : createElement('span', { 'aria-hidden': true }, words));
  const options = {
    ...(description === undefined ? {} : { description: text(description) }),
    ...(id === undefined ? {} : { id }),
    ...(isBrief ? { duration: BRIEF_TOAST_MS } : {}),
    ...(scope === 'app' ? { duration: Number.POSITIVE_INFINITY } : {}),
    ...(action === undefined ? {} : { action }),
  };
  const shown = variant === 'success' ? toast.success(text(title), options) : variant === 'error' ? toast.error(text(title), options) : toast(text(title), options);
  if (scope === 'screen') screenToasts.add(shown);
  else if (scope === 'next-screen') nextScreenToasts.add(shown);
}

/**
 * Dismisses the toasts raised on the screen just left; those raised to announce this screen stay
 * until the next screen change. Call once per screen change.
 */
export function dismissScreenToasts(): void {
  for (const id of screenToasts) toast.dismiss(id);
  screenToasts = nextScreenToasts;
  nextScreenToasts = new Set();
}
