import { afterEach, expect, test, vi } from 'vitest';
import { VERDICT_VIBRATION_MS, vibrateForVerdict } from './haptics.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

test('in a browser, APPROVED and DENIED vibrate with different patterns', async () => {
  const vibrate = vi.fn(() => true);
  vi.stubGlobal('navigator', { ...navigator, vibrate });
  await vibrateForVerdict('approved');
  await vibrateForVerdict('denied');
  expect(vibrate.mock.calls).toEqual([[[...VERDICT_VIBRATION_MS.approved]], [[...VERDICT_VIBRATION_MS.denied]]]);
  expect(VERDICT_VIBRATION_MS.approved).not.toEqual(VERDICT_VIBRATION_MS.denied);
});

test('a browser without vibration is left alone, and a throwing vibrate does not reach the caller', async () => {
  vi.stubGlobal('navigator', { ...navigator, vibrate: undefined });
  await expect(vibrateForVerdict('approved')).resolves.toBeUndefined();
  vi.stubGlobal('navigator', {
    ...navigator,
    vibrate: () => {
      throw new Error('blocked');
    },
  });
  await expect(vibrateForVerdict('denied')).resolves.toBeUndefined();
});
