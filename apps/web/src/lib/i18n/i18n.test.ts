import { expect, test, vi } from 'vitest';
import { readDeviceSettings } from '../device-settings.ts';
import { activeLanguage, deviceLanguage, formattingLocale, i18n } from './index.ts';
import { chooseLanguage } from './choice.ts';
import de from './locales/de.json';
import enFirstScreen from './locales/en.json';
import enScreens from './locales/en-screens.json';
import { formatLongDate } from '../dates.ts';

/** Every English text: the sign-in screen's and the other screens' (docs/decisions/098). */
const en = { ...enFirstScreen, ...enScreens };

/** 'a.b.c' paths of every leaf of a resource tree, with the leaf's value. */
function leaves(tree: object, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') for (const [p, v] of leaves(value as object, path)) found.set(p, v);
    else found.set(path, value);
  }
  return found;
}

test('English and German have the same keys, and no value is empty', () => {
  const english = leaves(en);
  const german = leaves(de);
  expect([...german.keys()].sort()).toEqual([...english.keys()].sort());
  for (const [path, value] of [...english, ...german]) {
    expect(typeof value, path).toBe('string');
    expect((value as string).trim(), path).not.toBe('');
  }
});

test('every {{placeholder}} of an English text is in its German text too', () => {
  const german = leaves(de);
  for (const [path, value] of leaves(en)) {
    const placeholders = (value as string).match(/\{\{\w+\}\}/g) ?? [];
    for (const placeholder of placeholders) expect(german.get(path), path).toContain(placeholder);
  }
});

test('choosing German loads its texts, sets <html lang>, formats dates in German and is remembered; English goes back', async () => {
  await chooseLanguage('de');
  expect(activeLanguage()).toBe('de');
  expect(document.documentElement.lang).toBe('de');
  expect(readDeviceSettings().language).toBe('de');
  expect(JSON.parse(localStorage.getItem('deviceSettings') ?? 'null')).toMatchObject({ language: 'de' });
  expect(i18n.t('scanner.startScanning')).toBe('Scannen starten');
  expect(formattingLocale('en-US')).toBe('de-DE');
  expect(formatLongDate('2026-07-11')).toBe('Samstag, 11. Juli 2026');

  await chooseLanguage('en');
  expect(document.documentElement.lang).toBe('en');
  expect(i18n.t('scanner.startScanning')).toBe('Start Scanning');
  expect(formatLongDate('2026-07-11')).toBe('Saturday, July 11, 2026');
});

test("the device's language is its first one the app speaks, in the device's order; none means English", () => {
  const languages = vi.spyOn(navigator, 'languages', 'get');
  try {
    languages.mockReturnValue(['fr-FR', 'de-AT', 'en-GB']);
    expect(deviceLanguage()).toBe('de');
    languages.mockReturnValue(['en-GB', 'de-DE']);
    expect(deviceLanguage()).toBe('en');
    languages.mockReturnValue(['fr-FR', 'nl']);
    expect(deviceLanguage()).toBeUndefined();
  } finally {
    languages.mockRestore();
  }
});
