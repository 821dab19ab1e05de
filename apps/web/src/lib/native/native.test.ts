import { expect, test } from 'vitest';
import { isNativePlatform } from './platform.ts';
import { preferencesGet, preferencesRemove, preferencesSet } from './preferences.ts';

test('a browser is not the native platform', () => {
  expect(isNativePlatform()).toBe(false);
});

test('device preferences fall back to a working web implementation in a browser', async () => {
  await preferencesSet('selectedDay', '{"day":1}');
  expect(await preferencesGet('selectedDay')).toBe('{"day":1}');
  await preferencesRemove('selectedDay');
  expect(await preferencesGet('selectedDay')).toBeNull();
});
