/**
 * The verdict vibrations on the native app (docs/decisions/102), through Capacitor's real Android
 * bridge and the stand-in of its native side: each cue reaches `@capacitor/haptics` as its own call.
 */
import { standIn } from '@/test/android-bridge-install.ts';
import { expect, test } from 'vitest';
import { flushBridge } from '@/test/android-bridge.ts';
import { NATIVE_ATTENTION_BUZZ_MS, vibrateForVerdict } from './haptics.ts';

const hapticCalls = () => standIn().calls.filter((call) => call.pluginId === 'Haptics').map((call) => [call.methodName, call.options]);

test('APPROVED, DENIED and an approval needing attention each play their own haptic pattern on the phone', async () => {
  await vibrateForVerdict('approved');
  await vibrateForVerdict('denied');
  await vibrateForVerdict('attention');
  await flushBridge();
  expect(hapticCalls()).toEqual([
    ['notification', { type: 'SUCCESS' }],
    ['notification', { type: 'ERROR' }],
    ['notification', { type: 'WARNING' }],
    ['vibrate', { duration: NATIVE_ATTENTION_BUZZ_MS }],
  ]);
});
