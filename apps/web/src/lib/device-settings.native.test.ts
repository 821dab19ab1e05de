/**
 * Decision 051 on the native app (Capacitor's real Android bridge with the Preferences stand-in):
 * this device's choices go to device Preferences under `deviceSettings` (SPEC §3's rule: native uses
 * device preferences), and the ones an older version kept in the WebView's localStorage are moved there.
 */
import '@/test/android-bridge-install.ts';
import { expect, test } from 'vitest';
import { devicePreferences as preferences } from '@/test/android-bridge.ts';
import { LEGACY_DEVICE_SETTING_KEYS, loadDeviceSettings, readDeviceSettings, updateDeviceSettings } from './device-settings.ts';

test('a choice is kept in Preferences, not in localStorage, and read back after a restart', async () => {
  await updateDeviceSettings({ continuousScanning: true, isVibrationOn: false });
  expect(JSON.parse(preferences.get('deviceSettings') ?? 'null')).toMatchObject({ continuousScanning: true, isVibrationOn: false });
  expect(window.localStorage.getItem('deviceSettings')).toBeNull();
  expect(await loadDeviceSettings()).toMatchObject({ continuousScanning: true, isVibrationOn: false });
});

test("the theme, switches and language an older version kept in the WebView's localStorage move into Preferences", async () => {
  window.localStorage.setItem(LEGACY_DEVICE_SETTING_KEYS.theme, '"dark"');
  window.localStorage.setItem(LEGACY_DEVICE_SETTING_KEYS.feedback, JSON.stringify({ isSoundOn: false, isVibrationOn: true }));
  window.localStorage.setItem(LEGACY_DEVICE_SETTING_KEYS.language, 'de');
  await loadDeviceSettings();
  expect(readDeviceSettings()).toMatchObject({ theme: 'dark', isSoundOn: false, language: 'de' });
  expect(JSON.parse(preferences.get('deviceSettings') ?? 'null')).toMatchObject({ theme: 'dark', isSoundOn: false, isVibrationOn: true, language: 'de' });
  for (const key of Object.values(LEGACY_DEVICE_SETTING_KEYS)) expect(window.localStorage.getItem(key)).toBeNull();
});
