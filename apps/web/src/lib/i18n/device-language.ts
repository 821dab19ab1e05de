/**
 * Which of the app's languages a device asks for: the one rule used by i18next's detection
 * (./index.ts) and by the boot script that chooses the prerendered page's language before the
 * first paint (src/boot/first-paint.ts, docs/decisions/082 and 099). No imports (not even
 * ./instance.ts, which loads i18next): the boot script is built from this file alone.
 */

/** The languages the app speaks, as the device's list names them (their primary subtag). */
const SPOKEN = ['en', 'de'] as const;

/**
 * The first language of `languages` (the device's preference order, `navigator.languages`: BCP 47
 * tags such as 'de-AT', 'fr-FR') whose primary subtag is one the app speaks ('en' or 'de', any
 * case); null when none is. 'fr-FR', 'de-AT' → 'de'; 'fr-FR' → null (the app then shows English).
 */
export function deviceLanguageOf(languages: readonly (string | null | undefined)[]): 'en' | 'de' | null {
  for (const tag of languages) {
    const primary = String(tag ?? '')
      .toLowerCase()
      .split(/[-_]/)[0];
    const spoken = SPOKEN.find((language) => language === primary);
    if (spoken !== undefined) return spoken;
  }
  return null;
}

/** The device's languages in preference order (`navigator.languages`, else `navigator.language`); empty where there is no navigator. */
export function deviceLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages && navigator.languages.length > 0 ? navigator.languages : [navigator.language];
}
