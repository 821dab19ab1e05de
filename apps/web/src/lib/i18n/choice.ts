/**
 * The language chosen on this device with the switch (issue 10 item 9): kept as the `language` field
 * of lib/device-settings.ts (docs/decisions/051). Apart from ./index.ts, which must not import the
 * device settings: they reach Capacitor (native Preferences), and ./index.ts is loaded before
 * anything else.
 */
import { readDeviceSettings, updateDeviceSettings } from '../device-settings.ts';
import { activeLanguage, i18n, type Language } from './instance.ts';

/**
 * Switches the app to `language` and remembers the choice on this device (a failed write keeps it
 * until the app closes). Resolves once the language's resources are loaded.
 */
export async function chooseLanguage(language: Language): Promise<void> {
  await Promise.all([updateDeviceSettings({ language }), i18n.changeLanguage(language)]);
}

/**
 * Applies the language chosen on this device, once the device settings are loaded (`startApp`, before
 * the first render; i18next starts with the device's language). Resolves once its resources are
 * loaded; does nothing when no language was chosen or it is already active.
 */
export async function applyChosenLanguage(): Promise<void> {
  const chosen = readDeviceSettings().language;
  if (chosen !== null && chosen !== activeLanguage()) await i18n.changeLanguage(chosen);
}
