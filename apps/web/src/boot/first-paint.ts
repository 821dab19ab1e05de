/**
 * Before the first paint (docs/decisions/082, 099): which prerendered element of index.html shows,
 * in which language and theme. Sets on `<html>`: `lang` ('en' | 'de'), the class `dark` and
 * `color-scheme`, and `data-boot` ('sign-in' | 'loading'); rewrites '/' to '/login' in the address.
 * Runs in the boot script (./boot.ts), synchronously from `<head>`; index.css shows the element that
 * matches `<html data-boot>` and `<html lang>`, and app/prerendered-page.ts hydrates it.
 *
 * It reads what the app will read, so the page React hydrates is the one painted:
 * - the language chosen on the device (`deviceSettings.language`, else the older
 *   `gatecheck.language`: lib/device-settings.ts), else the device's (`deviceLanguageOf`, the rule
 *   i18next's detection uses: lib/i18n/device-language.ts), else English;
 * - the theme chosen on the device (`deviceSettings.theme`, else the older `gatecheck.theme`, a JSON
 *   string), else `prefers-color-scheme` (lib/theme.ts);
 * - the stored user (`localStorage.user`, SPEC §3): the prerendered form only for a browser (not
 *   Capacitor's shell, whose form asks for a server) at /login with none; otherwise the guard's
 *   'Loading...' (SPEC §2).
 * Storage that cannot be read counts as empty (a WebView with storage off must still paint).
 */
import { deviceLanguageOf, deviceLanguages } from '../lib/i18n/device-language.ts';

function stored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The fields of the stored device settings this script reads (lib/device-settings.ts); anything else is ignored. */
function storedDeviceSettings(): { language?: unknown; theme?: unknown } {
  const settings = parsed(stored('deviceSettings'));
  return typeof settings === 'object' && settings !== null ? settings : {};
}

/** True inside Capacitor's native shell (the bridge objects @capacitor/core looks for). */
function isNativeShell(): boolean {
  const bridged = window as unknown as { androidBridge?: unknown; webkit?: { messageHandlers?: { bridge?: unknown } } };
  return Boolean(bridged.androidBridge ?? bridged.webkit?.messageHandlers?.bridge);
}

/** Applies the first paint's choices to `<html>` and the address (see the module comment). */
export function applyFirstPaint(): void {
  const html = document.documentElement;
  const settings = storedDeviceSettings();
  const chosenLanguage = settings.language !== undefined ? settings.language : stored('gatecheck.language');
  const theme = settings.theme !== undefined ? settings.theme : parsed(stored('gatecheck.theme'));
  const language = chosenLanguage === 'en' || chosenLanguage === 'de' ? chosenLanguage : deviceLanguageOf(deviceLanguages());
  html.lang = language ?? 'en';

  const isDark = theme === 'dark' || (theme !== 'light' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  html.classList.toggle('dark', isDark);
  html.style.colorScheme = isDark ? 'dark' : 'light';

  // SPEC §2: '/' is /login; done before the paint so that the sign-in form can be what is painted.
  if (window.location.pathname === '/') window.history.replaceState(window.history.state, '', `/login${window.location.search}${window.location.hash}`);
  const isSignIn = !isNativeShell() && stored('user') === null && window.location.pathname === '/login';
  html.setAttribute('data-boot', isSignIn ? 'sign-in' : 'loading');
}
