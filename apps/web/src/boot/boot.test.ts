/**
 * The boot script's parts (docs/decisions/082, 099), run in the page as index.html runs them: the
 * first paint's language (one rule with i18next's detection), theme and element (the stored
 * session, the native shell, '/'), and the app's scripts started from their template after the
 * first paint. The built, inlined script under the server's CSP: e2e/login-first-paint.spec.ts.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { deviceLanguageOf } from '@/lib/i18n/device-language.ts';
import { activeLanguage, i18n } from '@/lib/i18n/index.ts';
import { storageKeys } from '@/lib/storage.ts';
import { testUser } from '@/test/fixtures.ts';
import { APP_SCRIPTS_TEMPLATE_ID, FIRST_PAINT_WAIT_LIMIT_MS, startAppScripts, startAppScriptsAfterFirstPaint } from './app-scripts.ts';
import { applyFirstPaint } from './first-paint.ts';

/** The device's language list, as `navigator.languages` gives it. */
function deviceSpeaks(languages: string[]): void {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
}

function bootState(): { lang: string; boot: string | null; isDark: boolean; path: string } {
  const html = document.documentElement;
  return { lang: html.lang, boot: html.getAttribute('data-boot'), isDark: html.classList.contains('dark'), path: window.location.pathname };
}

afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  document.documentElement.removeAttribute('data-boot');
  document.documentElement.classList.remove('dark');
  document.head.querySelectorAll('[data-test-boot]').forEach((element) => element.remove());
  await i18n.changeLanguage('en');
});

describe('the language of the first paint', () => {
  // The device's list in preference order → the app's language (null: English, the fallback).
  const CASES: [string[], 'en' | 'de' | null][] = [
    [['de-DE', 'en-US'], 'de'],
    [['en-GB', 'de-DE'], 'en'],
    [['fr-FR', 'de-AT', 'en'], 'de'],
    [['fr-FR', 'it'], null],
    [['DE'], 'de'],
    [['de_CH'], 'de'],
    [['deu'], null],
    [[], null],
  ];

  test.each(CASES)('a device asking for %j: %s', (languages, expected) => {
    expect(deviceLanguageOf(languages)).toBe(expected);
  });

  test("i18next's detection and the first paint choose the same language for every device list", async () => {
    for (const [languages, expected] of CASES) {
      vi.restoreAllMocks();
      deviceSpeaks(languages);
      // No argument: i18next asks its language detector, as it does when the app starts.
      await i18n.changeLanguage();
      applyFirstPaint();
      expect(activeLanguage(), JSON.stringify(languages)).toBe(expected ?? 'en');
      expect(bootState().lang, JSON.stringify(languages)).toBe(expected ?? 'en');
    }
  });

  test('a language chosen on the device wins over the device list, from the settings or the older key', () => {
    deviceSpeaks(['de-DE']);
    window.localStorage.setItem(storageKeys.deviceSettings, JSON.stringify({ language: 'en' }));
    applyFirstPaint();
    expect(bootState().lang).toBe('en');
    window.localStorage.clear();
    deviceSpeaks(['en-US']);
    window.localStorage.setItem('gatecheck.language', 'de');
    applyFirstPaint();
    expect(bootState().lang).toBe('de');
    // A stored value the app does not speak is no choice: the device's language.
    window.localStorage.setItem(storageKeys.deviceSettings, JSON.stringify({ language: 'fr' }));
    applyFirstPaint();
    expect(bootState().lang).toBe('en');
  });
});

describe('the theme of the first paint', () => {
  function deviceScheme(isDark: boolean): void {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: isDark && query === '(prefers-color-scheme: dark)' }) as MediaQueryList);
  }

  test('the device settings, else the older key, else the device scheme', () => {
    deviceScheme(false);
    window.localStorage.setItem(storageKeys.deviceSettings, JSON.stringify({ theme: 'dark' }));
    applyFirstPaint();
    expect(bootState().isDark).toBe(true);
    expect(document.documentElement.style.colorScheme).toBe('dark');

    window.localStorage.clear();
    window.localStorage.setItem('gatecheck.theme', JSON.stringify('dark'));
    applyFirstPaint();
    expect(bootState().isDark).toBe(true);

    window.localStorage.clear();
    applyFirstPaint();
    expect(bootState().isDark).toBe(false);
    expect(document.documentElement.style.colorScheme).toBe('light');

    deviceScheme(true);
    applyFirstPaint();
    expect(bootState().isDark).toBe(true);
    window.localStorage.setItem(storageKeys.deviceSettings, JSON.stringify({ theme: 'light' }));
    applyFirstPaint();
    expect(bootState().isDark).toBe(false);
  });
});

describe('the element of the first paint', () => {
  test('the sign-in form at /login with no stored user; "/" becomes /login first', () => {
    window.history.replaceState(null, '', '/?next=1#top');
    applyFirstPaint();
    expect(bootState()).toMatchObject({ boot: 'sign-in', path: '/login' });
    expect(window.location.search + window.location.hash).toBe('?next=1#top');
  });

  test("the guard's 'Loading...' with a stored session, on another path, and in the native shell", () => {
    window.history.replaceState(null, '', '/login');
    window.localStorage.setItem(storageKeys.user, JSON.stringify(testUser));
    applyFirstPaint();
    expect(bootState().boot).toBe('loading');

    window.localStorage.clear();
    window.history.replaceState(null, '', '/scanner');
    applyFirstPaint();
    expect(bootState().boot).toBe('loading');

    window.history.replaceState(null, '', '/login');
    vi.stubGlobal('androidBridge', {});
    applyFirstPaint();
    expect(bootState().boot).toBe('loading');
    vi.unstubAllGlobals();
    applyFirstPaint();
    expect(bootState().boot).toBe('sign-in');
  });

  test('storage that cannot be read paints as empty storage', () => {
    window.history.replaceState(null, '', '/login');
    deviceSpeaks(['de-DE']);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    applyFirstPaint();
    expect(bootState()).toMatchObject({ boot: 'sign-in', lang: 'de' });
  });
});

describe("the app's scripts", () => {
  /** index.html's template as the build writes it (boot-plugin.ts). */
  function addTemplate(): void {
    const template = document.createElement('template');
    template.id = APP_SCRIPTS_TEMPLATE_ID;
    template.setAttribute('data-test-boot', '');
    template.innerHTML =
      '<script type="module" crossorigin src="/assets/index-test.js"></script><link rel="modulepreload" crossorigin href="/assets/react-test.js">';
    document.head.append(template);
  }

  function liveAppScripts(): string[] {
    return [...document.head.querySelectorAll(':scope > script[type="module"], :scope > link[rel="modulepreload"]')].map((element) => {
      element.setAttribute('data-test-boot', '');
      return `${element.localName} ${element.getAttribute('src') ?? element.getAttribute('href')} crossorigin=${element.getAttribute('crossorigin')}`;
    });
  }

  test('are started once, as live elements with the same attributes in the same order', () => {
    addTemplate();
    expect(startAppScripts()).toBe(2);
    expect(liveAppScripts()).toEqual(['script /assets/index-test.js crossorigin=', 'link /assets/react-test.js crossorigin=']);
    expect(document.getElementById(APP_SCRIPTS_TEMPLATE_ID)).toBeNull();
    expect(startAppScripts()).toBe(0);
  });

  test("a signed-in screen's code starts with the app only at its path and with a stored session", () => {
    /** The template with a modulepreload of the scanner's code, as the build marks it. */
    const screenTemplate = () => {
      addTemplate();
      const link = document.createElement('link');
      Object.assign(link, { rel: 'modulepreload', href: '/assets/scanner-route-test.js' });
      link.setAttribute('data-path', '/scanner');
      (document.getElementById(APP_SCRIPTS_TEMPLATE_ID) as HTMLTemplateElement).content.append(link);
    };
    window.history.replaceState(null, '', '/scanner');
    document.documentElement.setAttribute('data-boot', 'loading');
    screenTemplate();
    expect(startAppScripts()).toBe(3);
    expect(liveAppScripts().at(-1)).toMatch(/^link \/assets\/scanner-route-test\.js /);
    expect(document.head.querySelector('link[data-path]')).toBeNull();

    // The form at /scanner (no stored session: the guard goes to /login), or another screen: not started.
    for (const [path, boot] of [['/scanner', 'sign-in'], ['/day-select', 'loading']] as const) {
      document.head.querySelectorAll('[data-test-boot]').forEach((element) => element.remove());
      window.history.replaceState(null, '', path);
      document.documentElement.setAttribute('data-boot', boot);
      screenTemplate();
      expect(startAppScripts(), `${path} ${boot}`).toBe(2);
      expect(liveAppScripts(), `${path} ${boot}`).toHaveLength(2);
    }
  });

  test('start once the first contentful paint is reported, not before; at the latest after the wait limit', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    let reportPaint: (names: string[]) => void = () => {};
    class PaintObserver {
      static supportedEntryTypes = ['paint'];
      constructor(callback: (list: { getEntriesByName: (name: string) => unknown[] }) => void) {
        reportPaint = (names) => callback({ getEntriesByName: (name) => names.filter((entry) => entry === name) });
      }
      observe(): void {}
      disconnect(): void {}
    }
    vi.stubGlobal('PerformanceObserver', PaintObserver);
    addTemplate();
    startAppScriptsAfterFirstPaint();
    reportPaint(['first-paint']);
    expect(liveAppScripts()).toEqual([]);
    reportPaint(['first-contentful-paint']);
    expect(liveAppScripts()).toHaveLength(2);

    // No report at all (a page that never paints text): started after the limit.
    document.head.querySelectorAll('[data-test-boot]').forEach((element) => element.remove());
    addTemplate();
    startAppScriptsAfterFirstPaint();
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_LIMIT_MS - 1);
    expect(liveAppScripts()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(liveAppScripts()).toHaveLength(2);
  });

  test('without Paint Timing: after the next animation frame and a task; at once on a hidden page', () => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'setTimeout'] });
    vi.stubGlobal('PerformanceObserver', undefined);
    addTemplate();
    startAppScriptsAfterFirstPaint();
    expect(liveAppScripts()).toEqual([]);
    vi.advanceTimersToNextFrame();
    expect(liveAppScripts()).toEqual([]);
    // The task after the frame, well before the wait limit.
    vi.advanceTimersByTime(1);
    expect(liveAppScripts()).toHaveLength(2);

    document.head.querySelectorAll('[data-test-boot]').forEach((element) => element.remove());
    addTemplate();
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    startAppScriptsAfterFirstPaint();
    expect(liveAppScripts()).toHaveLength(2);
  });
});
