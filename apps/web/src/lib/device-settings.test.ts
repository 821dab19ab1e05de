import { act, renderHook } from '@testing-library/react';
import { expect, test } from 'vitest';
import { defaultDeviceSettings, loadDeviceSettings, updateDeviceSettings, useDeviceSettings } from './device-settings.ts';

test('every switch defaults to the SPEC behaviour: continuous scanning off', async () => {
  expect(defaultDeviceSettings).toEqual({ continuousScanning: false });
  expect(await loadDeviceSettings()).toEqual({ continuousScanning: false });
});

test('a change is stored on this device under deviceSettings and read back after a restart', async () => {
  await updateDeviceSettings({ continuousScanning: true });
  expect(JSON.parse(window.localStorage.getItem('deviceSettings') ?? 'null')).toEqual({ continuousScanning: true });
  expect(await loadDeviceSettings()).toEqual({ continuousScanning: true });
});

test('a corrupt or outdated stored value reads as the defaults, field by field', async () => {
  window.localStorage.setItem('deviceSettings', '{not json');
  expect(await loadDeviceSettings()).toEqual({ continuousScanning: false });
  window.localStorage.setItem('deviceSettings', JSON.stringify({ continuousScanning: 'yes', retired: 1 }));
  expect(await loadDeviceSettings()).toEqual({ continuousScanning: false });
});

test('the hook reads storage, re-renders on update, and follows a change made in another tab', async () => {
  window.localStorage.setItem('deviceSettings', JSON.stringify({ continuousScanning: true }));
  const { result } = renderHook(() => useDeviceSettings());
  await act(async () => undefined);
  expect(result.current.settings.continuousScanning).toBe(true);

  await act(async () => result.current.update({ continuousScanning: false }));
  expect(result.current.settings.continuousScanning).toBe(false);
  expect(window.localStorage.getItem('deviceSettings')).toBe('{"continuousScanning":false}');

  window.localStorage.setItem('deviceSettings', JSON.stringify({ continuousScanning: true }));
  await act(async () => {
    window.dispatchEvent(new StorageEvent('storage', { key: 'deviceSettings' }));
  });
  expect(result.current.settings.continuousScanning).toBe(true);
});
