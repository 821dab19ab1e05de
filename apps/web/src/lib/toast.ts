/**
 * The one wrapper around the toast library (sonner). Screens call `notify`; the `<Toaster />` is
 * mounted once in the app providers.
 *
 * A toast belongs to the screen it was raised on: when the app shows another screen, the toasts that
 * no longer apply are dismissed (`dismissScreenToasts`, called by the router's root on every screen
 * change), so a 'Login failed' never hangs over the screen a later sign-in opened (issue 15 item 7).
 * A toast that announces the step to the next screen ('Organization Selected', …) is raised with
 * `scope: 'next-screen'` and stays through that step.
 *
 * Where toasts sit (decision 093, superseding 028's bottom placement): at the top, in the band just
 * under the header's row of controls (`TOASTER_PLACEMENT`), where every screen has its heading and
 * no control when it opens, so a toast never lands on the card, field or button staff tap next. A
 * toast is see-through to taps except its close button and action (index.css): a tap meant for
 * what lies beneath, made as the toast appears, still reaches it.
 *
 * sonner is not part of the first load (issue 13, docs/decisions/061): `useToastLibrary` starts
 * loading it once the app is shown, and `notify` waits for it when a toast comes earlier. A toast
 * dismissed before sonner arrived is never shown.
 */
import { createElement, useEffect, useSyncExternalStore, type ReactNode } from 'react';

/**
 * The top of the band toasts sit in, as a CSS length below the phone's status bar (the safe area):
 * 4 rem (64 px), under the flow screens' header controls (Back, Password, Logout: 12–60 px; the
 * header's edge at 72 px) and the scanner's Back button (12–56 px). index.css moves it (`--toast-band-top`) while the 'Offline' strip
 * shows above the header, and to the screen's top while a dialog or sheet is open: the dimmed screen
 * there takes no taps, and the sheet's own controls begin below it.
 */
const TOAST_BAND_TOP = 'calc(var(--toast-band-top, 4rem) + var(--safe-top, 0px))';

/**
 * The `<Toaster />`'s placement, the same on phones (sonner's `mobileOffset`, up to 600 px wide)
 * and wider screens (`offset`): top centre, in the band under the header (decision 093). A second
 * toast stacked behind the front one peeks out below it by `gap` px (sonner's 14 made the band deeper).
 */
export const TOASTER_PLACEMENT = {
  position: 'top-center',
  gap: 8,
  offset: { top: TOAST_BAND_TOP },
  mobileOffset: { top: TOAST_BAND_TOP, left: '0.5rem', right: '0.5rem' },
} as const;

/**
 * For a dialog's `onInteractOutside` (Radix): a tap on a toast — its close button or action, the only
 * parts that take taps — is not a tap outside the dialog, so it leaves the dialog open. While a
 * dialog or sheet is open the toasts sit above it, on the dimmed screen (decision 093).
 */
export function keepOpenOnToastTap(event: { target: EventTarget | null; preventDefault: () => void }): void {
  if (event.target instanceof Element && event.target.closest('[data-sonner-toaster]') !== null) event.preventDefault();
}

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
   * Stays when the language is switched (`dismissToastsOfThisScreen`), in the words it was raised
   * in: a warning said once that must not be lost (a ticket never checked, a ticket let in twice).
   */
  isKeptOnLanguageChange?: boolean;
  /**
   * false: shown but not read out by screen readers (the toaster is a live region), for a toast
   * whose news another live region already announces, such as the verdict (decision 035). Default true.
   */
  isAnnounced?: boolean;
}

type ToastId = string | number;
type ToastLibrary = typeof import('sonner');

let screenToasts = new Set<ToastId>();
let nextScreenToasts = new Set<ToastId>();
/** Toasts raised with `isKeptOnLanguageChange`. */
const keptOnLanguageChange = new Set<ToastId>();
/** The toast shown last for each `Notice.id` (the ids of toasts that replace each other). */
const shownByNoticeId = new Map<string, ToastId>();
/** Ids of toasts raised without an id of their own: `notify-1`, `notify-2`, … */
let nextToastNumber = 1;

let library: ToastLibrary | null = null;
let libraryLoad: Promise<ToastLibrary> | null = null;
const libraryListeners = new Set<() => void>();

/**
 * Loads sonner once (its chunk, about 7 kB gzip). Resolves to the module; a failed load rejects and
 * the next call tries again.
 */
function loadToastLibrary(): Promise<ToastLibrary> {
  libraryLoad ??= import('sonner').then(
    (module) => {
      library = module;
      for (const listener of libraryListeners) listener();
      return module;
    },
    (error: unknown) => {
      libraryLoad = null;
      throw error;
    },
  );
  return libraryLoad;
}

/**
 * sonner, once loaded (null until then), for mounting its `<Toaster />`. The first component to use
 * it starts the load after it is shown, so the first toast rarely waits.
 */
export function useToastLibrary(): ToastLibrary | null {
  const loaded = useSyncExternalStore(
    (listener) => {
      libraryListeners.add(listener);
      return () => libraryListeners.delete(listener);
    },
    () => library,
    // Never loaded in the build's prerender nor while hydrating it (docs/decisions/082).
    () => null,
  );
  useEffect(() => {
    // A failed load is tried again by the next toast.
    loadToastLibrary().catch(() => undefined);
  }, []);
  return loaded;
}

/** True while the toast `id` belongs to the current or the next screen (not dismissed yet). */
function isPending(id: ToastId): boolean {
  return screenToasts.has(id) || nextScreenToasts.has(id);
}

/** Shows a toast with a title and an optional description (once sonner is loaded: at once, usually). */
export function notify({ title, description, variant = 'info', id, scope = 'screen', isBrief = false, isAnnounced = true, action, isKeptOnLanguageChange = false }: Notice): void {
  const text = (words: string): ReactNode => (isAnnounced ? words : createElement('span', { 'aria-hidden': true }, words));
  // Each toast gets an id of its own, even one that replaces another (`id`): the one it replaces is
  // dismissed, and the new one is added fresh. Re-using sonner's id for the new toast updated the old
  // one in place, and a toast in the middle of its own closing took the update away with it: a
  // verdict toast raised about 4 s after the last one ('Access denied' after 'Access granted') could
  // then never show.
  const toastId = id === undefined ? `notify-${nextToastNumber++}` : `${id}-${nextToastNumber++}`;
  if (id !== undefined) {
    const replaced = shownByNoticeId.get(id);
    if (replaced !== undefined) {
      library?.toast.dismiss(replaced);
      screenToasts.delete(replaced);
      nextScreenToasts.delete(replaced);
      keptOnLanguageChange.delete(replaced);
    }
    shownByNoticeId.set(id, toastId);
  }
  const options = {
    ...(description === undefined ? {} : { description: text(description) }),
    id: toastId,
    ...(isBrief ? { duration: BRIEF_TOAST_MS } : {}),
    ...(scope === 'app' ? { duration: Number.POSITIVE_INFINITY } : {}),
    ...(action === undefined ? {} : { action }),
  };
  const show = ({ toast }: ToastLibrary) => {
    // Dismissed (its screen was left) before sonner arrived: never shown. App news is never dismissed so.
    if (scope !== 'app' && !isPending(toastId)) return;
    if (variant === 'success') toast.success(text(title), options);
    else if (variant === 'error') toast.error(text(title), options);
    else toast(text(title), options);
  };
  if (scope === 'screen') screenToasts.add(toastId);
  else if (scope === 'next-screen') nextScreenToasts.add(toastId);
  if (isKeptOnLanguageChange) keptOnLanguageChange.add(toastId);
  if (library) show(library);
  else
    loadToastLibrary().then(show, () => {
      // sonner could not be loaded (no network): the toast is lost, the screen itself still works.
    });
}

/**
 * Back to the state of a fresh start of the app: sonner not loaded yet (the next `<Toaster />` or
 * toast loads it again), no toast pending, ids from `notify-1` again. The app never calls it: the web
 * tests share one module graph between test files, and their setup calls it after each file
 * (src/test/setup.ts, docs/decisions/065), so every file starts as the app does.
 */
export function resetToasts(): void {
  screenToasts = new Set();
  nextScreenToasts = new Set();
  keptOnLanguageChange.clear();
  shownByNoticeId.clear();
  nextToastNumber = 1;
  library = null;
  libraryLoad = null;
}

/**
 * Dismisses every toast of this screen and the next (not the app's news, nor one raised with
 * `isKeptOnLanguageChange`): called when the language changes, since their words stay in the
 * language they were raised in (issue 10 item 9).
 */
export function dismissToastsOfThisScreen(): void {
  const isKept = (id: ToastId) => keptOnLanguageChange.has(id);
  for (const id of [...screenToasts, ...nextScreenToasts]) if (!isKept(id)) library?.toast.dismiss(id);
  screenToasts = new Set([...screenToasts].filter(isKept));
  nextScreenToasts = new Set([...nextScreenToasts].filter(isKept));
}

/**
 * Dismisses the toasts raised on the screen just left; those raised to announce this screen stay
 * until the next screen change. Call once per screen change.
 */
export function dismissScreenToasts(): void {
  if (library) for (const id of screenToasts) library.toast.dismiss(id);
  screenToasts = nextScreenToasts;
  nextScreenToasts = new Set();
}
