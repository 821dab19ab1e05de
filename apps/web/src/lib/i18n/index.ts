/**
 * Languages of the web app (issue 10 item 9): English, the SPEC texts word for word and the default,
 * and German. i18next + react-i18next; every user-visible string of the app is a key of
 * `locales/en.json` (bundled) and `locales/de.json` (loaded on demand with a dynamic import, so
 * English-speaking devices never download it). docs/decisions/046.
 *
 * The language is the one chosen on this device with the language switch (localStorage
 * 'gatecheck.language', the raw code 'en' | 'de'), else the device's (`navigator.language`, via
 * i18next-browser-languagedetector), else English. <html lang> follows the active language.
 */
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';

/** The languages the app speaks; English first (the default and the fallback). */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** localStorage key of the language chosen on this device (raw code, as the detector reads it). */
export const LANGUAGE_STORAGE_KEY = 'gatecheck.language';

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

/** The app's i18next instance (also the one react-i18next's `useTranslation` uses). */
export const i18n = i18next.createInstance();

/** Puts the app language of `language` ('de-DE' → 'de') on <html lang> (screen readers pick their voice from it). */
function applyDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = toAppLanguage(language);
}

/** 'de', 'de-AT' → 'de'; anything else → 'en' (the fallback). */
function toAppLanguage(language: string | undefined): Language {
  return language?.toLowerCase().startsWith('de') ? 'de' : 'en';
}

i18n.on('languageChanged', applyDocumentLanguage);

/** Resolves once the detected language's resources are loaded (German: after its chunk arrived). */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyResources)
  .use(LanguageDetector)
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
    detection: {
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: LANGUAGE_STORAGE_KEY,
      // Only a choice made with the switch is remembered (chooseLanguage), not the device's language.
      caches: [],
    },
    react: { useSuspense: false },
  });

/** The active language, reduced to one the app speaks ('de-AT' → 'de'; anything else → 'en'). */
export function activeLanguage(): Language {
  return toAppLanguage(i18n.resolvedLanguage ?? i18n.language);
}

/**
 * Switches the app to `language` and remembers the choice on this device (a blocked storage keeps it
 * until the app closes). Resolves once the language's resources are loaded.
 */
export async function chooseLanguage(language: Language): Promise<void> {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Blocked or full storage: the choice holds for this run only.
  }
  await i18n.changeLanguage(language);
}

/**
 * The BCP 47 locale for dates and times: German formats as 'de-DE'; in English the call site's own
 * locale stays (`englishLocale`, e.g. 'en-US' for SPEC §2's long-form dates, or undefined = the
 * device's), so the English screens format exactly as before.
 */
export function formattingLocale(englishLocale: string | undefined): string | undefined {
  return activeLanguage() === 'de' ? 'de-DE' : englishLocale;
}

/** Translates outside React (toasts, messages built in logic). Same keys as `useTranslation().t`. */
export const t = i18n.t.bind(i18n);
