/**
 * Languages of the web app (issue 10 item 9): English, the SPEC texts word for word and the default,
 * and German. i18next + react-i18next; every user-visible string of the app is a key of the English
 * texts and of `locales/de.json` (loaded on demand with a dynamic import, so English-speaking devices
 * never download it). docs/decisions/046. The English texts come in two files: `locales/en.json`,
 * bundled, holds those of the sign-in screen and of what is shown around every screen; the texts of
 * every other screen, `locales/en-screens.json`, load with those screens (`loadScreenTexts`, called
 * by app/lazy-screens.ts), off the sign-in screen's first load (docs/decisions/098).
 *
 * The language is the one chosen on this device with the language switch (the `language` field of
 * lib/device-settings.ts, docs/decisions/051; applied by ./choice.ts), else the device's
 * (`navigator.languages`: the first English or German one, `deviceLanguageOf`, the rule the boot
 * script also follows to paint the prerendered page in the same language), else English. <html lang>
 * follows the active language.
 */
import type { BackendModule, LanguageDetectorModule, ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { deviceLanguageOf, deviceLanguages } from './device-language.ts';
import { i18n, LANGUAGES, toAppLanguage, type Language } from './instance.ts';
import en from './locales/en.json';

export { activeLanguage, formattingLocale, i18n, LANGUAGES, t, type Language } from './instance.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en & typeof import('./locales/en-screens.json') };
  }
}

let screenTexts: Promise<void> | undefined;

/**
 * Loads the English texts of every screen but sign-in (`locales/en-screens.json`) into i18next, once
 * (every call returns the same promise). The screens that use them load it with their code
 * (app/lazy-screens.ts). German needs nothing more: `locales/de.json` holds all its texts.
 * @throws {Error} when the file's chunk cannot be loaded; a later call tries again
 */
export function loadScreenTexts(): Promise<void> {
  screenTexts ??= import('./locales/en-screens.json').then(
    (module) => {
      i18n.addResourceBundle('en', 'translation', module.default, true, false);
    },
    (error: unknown) => {
      screenTexts = undefined;
      throw error;
    },
  );
  return screenTexts;
}

/** Loads the resources of a language that is not bundled (German) in its own chunk. */
const lazyResources: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language: string, _namespace: string, callback: ReadCallback) {
    if (language !== 'de') {
      callback(null, {});
      return;
    }
    import('./locales/de.json').then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * The device's language by `deviceLanguageOf` (undefined when the device names neither English nor
 * German: i18next falls back to English). A language chosen with the switch is applied by
 * `applyChosenLanguage` (./choice.ts) once the device settings are loaded, before the first render.
 */
const deviceLanguageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  detect: deviceLanguage,
};

/** Puts the app language of `language` ('de-DE' → 'de') on <html lang> (screen readers pick their voice from it). */
function applyDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = toAppLanguage(language);
}

i18n.on('languageChanged', applyDocumentLanguage);

/**
 * The device's first language the app speaks ('de-AT' → 'de'), from `navigator.languages` (else
 * `navigator.language`) in the device's order; undefined when none is (i18next then falls back to
 * English) or outside a browser (the build's prerender). The same rule as the boot script's
 * (`deviceLanguageOf`, docs/decisions/099), without i18next-browser-languagedetector's 2 kB on the
 * sign-in screen's first load (docs/decisions/098).
 */
export function deviceLanguage(): Language | undefined {
  return deviceLanguageOf(deviceLanguages()) ?? undefined;
}

/** Resolves once the device language's resources are loaded (German: after its chunk arrived). */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyResources)
  .use(deviceLanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    // English is bundled: t() answers synchronously from the first render on.
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes.
    returnNull: false,
    react: { useSuspense: false },
  });
