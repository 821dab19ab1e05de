import { afterEach, expect, test, vi } from 'vitest';
import { loadDeviceSettings } from './device-settings.ts';
import { applyTheme, chooseTheme, currentTheme, followTheme, readThemePreference, resolveTheme } from './theme.ts';

/** A device whose `prefers-color-scheme: dark` is `isDark`, and which can change it later. */
function stubDeviceScheme(isDark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: isDark,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', (text: string) => {
    expect(text).toBe('(prefers-color-scheme: dark)');
    return query;
  });
  return {
    set(isNowDark: boolean) {
      query.matches = isNowDark;
      for (const listener of listeners) listener();
    },
    listenerCount: () => listeners.size,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  applyTheme('light');
});

test('System follows the device; Light and Dark hold whatever it says', () => {
  expect(resolveTheme('system', true)).toBe('dark');
  expect(resolveTheme('system', false)).toBe('light');
  expect(resolveTheme('light', true)).toBe('light');
  expect(resolveTheme('dark', false)).toBe('dark');
});

test('with nothing chosen, the device decides, and a change of the device applies at once', () => {
  const device = stubDeviceScheme(true);
  const root = document.documentElement;
  const stop = followTheme(root);
  expect(readThemePreference()).toBe('system');
  expect(root).toHaveClass('dark');
  expect(root.style.colorScheme).toBe('dark');

  device.set(false);
  expect(root).not.toHaveClass('dark');
  expect(root.style.colorScheme).toBe('light');
  stop();
  expect(device.listenerCount()).toBe(0);
});

test('a chosen theme is applied, remembered, and holds against the device', () => {
  const device = stubDeviceScheme(false);
  const root = document.documentElement;
  const stop = followTheme(root);
  chooseTheme('dark');
  expect(root).toHaveClass('dark');
  expect(JSON.parse(window.localStorage.getItem('deviceSettings') ?? 'null')).toMatchObject({ theme: 'dark' });
  device.set(true);
  chooseTheme('light');
  expect(root).not.toHaveClass('dark');
  expect(currentTheme()).toBe('light');
  stop();
});

test('an unknown stored value reads as System; a browser without matchMedia is light', async () => {
  window.localStorage.setItem('deviceSettings', '{"theme":"sepia"}');
  await loadDeviceSettings();
  expect(readThemePreference()).toBe('system');
  vi.stubGlobal('matchMedia', undefined);
  expect(currentTheme()).toBe('light');
});

test('the page\'s theme-color follows the theme shown: white when light, slate 900 when dark (issue 12 item 1)', () => {
  const meta = document.head.appendChild(Object.assign(document.createElement('meta'), { name: 'theme-color', content: '#123456' }));
  try {
    applyTheme('dark');
    expect(meta.content).toBe('#0f172a');
    applyTheme('light');
    expect(meta.content).toBe('#ffffff');
  } finally {
    meta.remove();
  }
});
