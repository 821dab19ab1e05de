import { afterEach, expect, test, vi } from 'vitest';
import { installFakeAudioContext } from '@/test/fake-audio-context.ts';
import { updateDeviceSettings } from './device-settings.ts';
import { createVerdictSound, TONE_GAP_MS, verdictSound, VERDICT_TONES } from './verdict-sound.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const round = (value: number) => Math.round(value * 1000);

test('APPROVED and DENIED play different notes, each as long as its tone says', () => {
  const audio = installFakeAudioContext('running');
  const sound = createVerdictSound({ isEnabled: () => true });
  sound.play('approved');
  const approved = audio.notes.splice(0);
  sound.play('denied');
  const denied = audio.notes.splice(0);

  expect(approved.map((note) => note.frequencyHz)).toEqual(VERDICT_TONES.approved.map((tone) => tone.frequencyHz));
  expect(denied.map((note) => note.frequencyHz)).toEqual(VERDICT_TONES.denied.map((tone) => tone.frequencyHz));
  expect(approved.map((note) => note.frequencyHz)).not.toEqual(denied.map((note) => note.frequencyHz));
  expect(approved.map((note) => note.wave)).toEqual(['sine', 'sine']);
  expect(denied.map((note) => note.wave)).toEqual(['square', 'square']);
  // Durations in ms from the context's schedule, and the gap between the two notes.
  expect(approved.map((note) => round(note.stopS - note.startS))).toEqual(VERDICT_TONES.approved.map((tone) => tone.durationMs));
  expect(denied.map((note) => round(note.stopS - note.startS))).toEqual(VERDICT_TONES.denied.map((tone) => tone.durationMs));
  expect(round(denied[1]!.startS - denied[0]!.stopS)).toBe(TONE_GAP_MS);
  // One AudioContext for every verdict.
  expect(audio.contexts).toHaveLength(1);
});

test('the AudioContext is created and resumed on the first pointerdown, then no longer listened for', () => {
  const audio = installFakeAudioContext('suspended');
  const sound = createVerdictSound({ isEnabled: () => true });
  const stop = sound.listenForFirstGesture(window);
  expect(audio.contexts).toHaveLength(0);

  window.dispatchEvent(new Event('pointerdown'));
  expect(audio.contexts).toHaveLength(1);
  expect(audio.contexts[0]?.resumeCalls).toBe(1);
  expect(audio.contexts[0]?.state).toBe('running');

  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
  expect(audio.contexts).toHaveLength(1);
  expect(audio.contexts[0]?.resumeCalls).toBe(1);
  sound.play('approved');
  expect(audio.notes).toHaveLength(2);
  stop();
});

test('a keydown (an Enter in the manual field) unlocks sound too', () => {
  const audio = installFakeAudioContext('suspended');
  const sound = createVerdictSound({ isEnabled: () => true });
  const stop = sound.listenForFirstGesture(window);
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
  expect(audio.contexts[0]?.state).toBe('running');
  stop();
});

test('with sound off, no AudioContext is made on a gesture and a verdict plays nothing', () => {
  const audio = installFakeAudioContext('suspended');
  let isOn = false;
  const sound = createVerdictSound({ isEnabled: () => isOn });
  const stop = sound.listenForFirstGesture(window);
  window.dispatchEvent(new Event('pointerdown'));
  sound.play('approved');
  sound.play('denied');
  expect(audio.contexts).toHaveLength(0);
  expect(audio.notes).toHaveLength(0);

  // Turned on later: the next gesture unlocks it (the tap on the switch is one).
  isOn = true;
  window.dispatchEvent(new Event('pointerdown'));
  expect(audio.contexts).toHaveLength(1);
  stop();
});

test("the app's player follows the Sound switch", async () => {
  const audio = installFakeAudioContext('running');
  verdictSound.play('approved');
  expect(audio.notes).toHaveLength(2);
  await updateDeviceSettings({ isSoundOn: false });
  verdictSound.play('denied');
  expect(audio.notes).toHaveLength(2);
});

test('a browser without Web Audio, or one that refuses it, stays silent without throwing', () => {
  vi.stubGlobal('AudioContext', undefined);
  const sound = createVerdictSound({ isEnabled: () => true });
  expect(() => sound.play('approved')).not.toThrow();
  vi.stubGlobal(
    'AudioContext',
    class {
      constructor() {
        throw new Error('NotAllowedError');
      }
    },
  );
  expect(() => createVerdictSound({ isEnabled: () => true }).play('denied')).not.toThrow();
});

test('reset closes the AudioContext and the next verdict makes a new one, as after a fresh start', () => {
  const audio = installFakeAudioContext('running');
  const sound = createVerdictSound({ isEnabled: () => true });
  sound.play('approved');
  expect(audio.contexts).toHaveLength(1);

  sound.reset();
  expect(audio.contexts[0]!.state).toBe('closed');
  sound.play('denied');
  expect(audio.contexts).toHaveLength(2);
  expect(audio.contexts[1]!.state).toBe('running');
  expect(audio.notes.map((note) => note.frequencyHz)).toEqual([...VERDICT_TONES.approved, ...VERDICT_TONES.denied].map((tone) => tone.frequencyHz));
  // Nothing to close: a reset before any sound is harmless.
  expect(() => createVerdictSound({ isEnabled: () => true }).reset()).not.toThrow();
});
