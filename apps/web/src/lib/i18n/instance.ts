/**
 * The app's i18next instance and the helpers that only read it, in a module of their own (no
 * imports of ours), so lib/storage.ts can word its notice without importing the i18n set-up, which
 * itself reads the device settings (lib/device-settings.ts → lib/storage.ts): no import cycle.
 * Set up (resources, detection) in `./index.ts`; everything here is re-exported from there.
 */
import i18next from 'i18next';

/** The languages the app speaks; English first (the default and the fallback). */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The app's i18next instance (also the one react-i18next's `useTranslation` uses). */
export const i18n = i18next.createInstance();

/** 'de', 'de-AT' → 'de'; anything else → 'en' (the fallback). */
export function toAppLanguage(language: string | undefined): Language {
  return language?.toLowerCase().startsWith('de') ? 'de' : 'en';
}

/** The active language, reduced to one the app speaks ('de-AT' → 'de'; anything else → 'en'). */
export function activeLanguage(): Language {
  return toAppLanguage(i18n.resolvedLanguage ?? i18n.language);
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
