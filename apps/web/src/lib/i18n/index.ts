/**
 * Languages of the web app (issue 10 item 9): English, the SPEC texts word for word and the default,
 * and German. i18next + react-i18next; every user-visible string of the app is a key of
 * `locales/en.json` (bundled) and `locales/de.json` (loaded on demand with a dynamic import, so
 * English-speaking devices never download it). docs/decisions/046.
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
import { i18n, LANGUAGES, toAppLanguage } from './instance.ts';
import en from './locales/en.json';

export { activeLanguage, formattingLocale, i18n, LANGUAGES, t, type Language } from './instance.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
  }
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
  detect: () => deviceLanguageOf(deviceLanguages()) ?? undefined,
};

/** Puts the app language of `language` ('de-DE' → 'de') on <html lang> (screen readers pick their voice from it). */
function applyDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = toAppLanguage(language);
}

i18n.on('languageChanged', applyDocumentLanguage);

/** Resolves once the detected language's resources are loaded (German: after its chunk arrived). */
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
