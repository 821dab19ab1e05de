import { act, renderHook, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import {
  defaultDeviceSettings,
  LEGACY_DEVICE_SETTING_KEYS,
  loadDeviceSettings,
  readDeviceSettings,
  subscribeToDeviceSettings,
  updateDeviceSettings,
  useDeviceSettings,
} from './device-settings.ts';

const stored = () => JSON.parse(window.localStorage.getItem('deviceSettings') ?? 'null') as unknown;

test('every choice defaults to the SPEC behaviour: continuous scanning off, sound and vibration on, the device theme and language', async () => {
  const defaults = { continuousScanning: false, isSoundOn: true, isVibrationOn: true, theme: 'system', language: null };
  expect(defaultDeviceSettings).toEqual(defaults);
  expect(await loadDeviceSettings()).toEqual(defaults);
});

test('a change applies at once, is stored on this device under deviceSettings, and is read back after a restart', async () => {
  const heard: boolean[] = [];
  const stop = subscribeToDeviceSettings(() => heard.push(readDeviceSettings().continuousScanning));
  const writing = updateDeviceSettings({ continuousScanning: true, theme: 'dark' });
  expect(readDeviceSettings()).toMatchObject({ continuousScanning: true, theme: 'dark' });
  await writing;
  stop();
  expect(heard).toEqual([true]);
  expect(stored()).toEqual({ continuousScanning: true, isSoundOn: true, isVibrationOn: true, theme: 'dark', language: null });
  expect(await loadDeviceSettings()).toMatchObject({ continuousScanning: true, theme: 'dark' });
});

test('a corrupt or outdated stored value reads as the defaults, field by field', async () => {
  window.localStorage.setItem('deviceSettings', '{not json');
  expect(await loadDeviceSettings()).toEqual(defaultDeviceSettings);
  window.localStorage.setItem('deviceSettings', JSON.stringify({ continuousScanning: 'yes', isSoundOn: false, theme: 'sepia', language: 'fr', retired: 1 }));
  expect(await loadDeviceSettings()).toEqual({ ...defaultDeviceSettings, isSoundOn: false });
});

test('choices kept under the keys used before (gatecheck.theme, .feedback, .language) are moved into deviceSettings', async () => {
  window.localStorage.setItem('deviceSettings', JSON.stringify({ continuousScanning: true }));
  window.localStorage.setItem(LEGACY_DEVICE_SETTING_KEYS.theme, '"dark"');
  window.localStorage.setItem(LEGACY_DEVICE_SETTING_KEYS.feedback, JSON.stringify({ isSoundOn: false, isVibrationOn: true }));
  window.localStorage.setItem(LEGACY_DEVICE_SETTING_KEYS.language, 'de');
  expect(await loadDeviceSettings()).toEqual({ continuousScanning: true, isSoundOn: false, isVibrationOn: true, theme: 'dark', language: 'de' });
  expect(stored()).toEqual({ continuousScanning: true, isSoundOn: false, isVibrationOn: true, theme: 'dark', language: 'de' });
  for (const key of Object.values(LEGACY_DEVICE_SETTING_KEYS)) expect(window.localStorage.getItem(key)).toBeNull();
  // A later choice is not undone by the old keys: they are gone.
  await updateDeviceSettings({ theme: 'light' });
  expect(await loadDeviceSettings()).toMatchObject({ theme: 'light', language: 'de' });
});

test('the hook reads storage when it mounts, re-renders on update, and follows a change made in another tab', async () => {
  window.localStorage.setItem('deviceSettings', JSON.stringify({ continuousScanning: true }));
  const { result } = renderHook(() => useDeviceSettings());
  // Storage is read after mounting, asynchronously.
  await waitFor(() => expect(result.current.settings.continuousScanning).toBe(true));

  await act(async () => result.current.update({ continuousScanning: false }));
  expect(result.current.settings.continuousScanning).toBe(false);
  expect(stored()).toMatchObject({ continuousScanning: false });

  window.localStorage.setItem('deviceSettings', JSON.stringify({ continuousScanning: true }));
  act(() => {
    window.dispatchEvent(new StorageEvent('storage', { key: 'deviceSettings' }));
  });
  await waitFor(() => expect(result.current.settings.continuousScanning).toBe(true));
});
