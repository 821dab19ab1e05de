/**
 * Light and dark themes (issue 10 item 8): the device's setting (`prefers-color-scheme`) by default,
 * or a choice made on this device (System / Light / Dark, remembered). The resolved theme is the
 * class `dark` on <html> (Tailwind's `dark` variant and the dark palette in index.css key on it,
 * docs/decisions/036) and the page's `color-scheme` (form controls, scrollbars).
 */
import { useSyncExternalStore } from 'react';
import { readDeviceSettings, subscribeToDeviceSettings, updateDeviceSettings, useDeviceSettings, type ThemePreference } from './device-settings.ts';

export { ThemePreference } from './device-settings.ts';
export type Theme = 'light' | 'dark';

/** The theme chosen on this device: the `theme` field of lib/device-settings.ts, 'system' until a choice is made. */
export function readThemePreference(): ThemePreference {
  return readDeviceSettings().theme;
}

/** Remembers `preference` on this device and applies it (every follower of the theme hears it). */
export function chooseTheme(preference: ThemePreference): void {
  void updateDeviceSettings({ theme: preference });
}

const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

/** The device's dark-scheme media query, or null where there is none (old WebViews, jsdom, the build's prerender). */
function darkSchemeQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DARK_SCHEME_QUERY) : null;
}

/** Whether the device asks for a dark scheme now. */
export function prefersDarkScheme(): boolean {
  return darkSchemeQuery()?.matches ?? false;
}

/** The theme to show for `preference` on a device that does (or does not) prefer dark. */
export function resolveTheme(preference: ThemePreference, isDevicePreferringDark: boolean): Theme {
  if (preference === 'system') return isDevicePreferringDark ? 'dark' : 'light';
  return preference;
}

/** The theme to show now, from the stored choice and the device. */
export function currentTheme(): Theme {
  return resolveTheme(readThemePreference(), prefersDarkScheme());
}

/**
 * The colour of the browser's and the installed app's bars in each theme (`<meta name="theme-color">`,
 * issue 12 item 1): the header's background, white in the light theme and the dark palette's
 * "white" (slate 900) in the dark one. The web app manifest names the light one.
 */
export const THEME_COLORS: Record<Theme, string> = { light: '#ffffff', dark: '#0f172a' };

/** Sets `theme` on `root`: the `dark` class and `color-scheme`; and the page's theme-color. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  root.ownerDocument.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[theme]);
}

/** Calls `onChange` when the stored choice or the device's scheme changes; returns the unsubscribe. */
function subscribeToTheme(onChange: () => void): () => void {
  const query = darkSchemeQuery();
  query?.addEventListener('change', onChange);
  const unsubscribe = subscribeToDeviceSettings(onChange);
  return () => {
    query?.removeEventListener('change', onChange);
    unsubscribe();
  };
}

/**
 * Applies the current theme to <html> now and whenever the choice or the device's scheme changes.
 * Call once at start, before the first render. Returns the function that stops following.
 */
export function followTheme(root: HTMLElement = document.documentElement): () => void {
  applyTheme(currentTheme(), root);
  return subscribeToTheme(() => applyTheme(currentTheme(), root));
}

/** The theme shown now, in a component (re-renders when it changes). */
export function useTheme(): Theme {
  // Light in the prerendered sign-in screen and while hydrating it (docs/decisions/082); the render
  // after hydration has the device's theme (<html> already shows it, followTheme and the boot script).
  return useSyncExternalStore(subscribeToTheme, currentTheme, (): Theme => 'light');
}

/** The stored choice, in a component. */
export function useThemePreference(): ThemePreference {
  return useDeviceSettings().settings.theme;
}
