/**
 * Hearing a verdict (issue 10 item 3, docs/decisions/102): a short rising two-note chime for
 * APPROVED, a low falling buzz for DENIED, and for an approval that needs attention a longer
 * alternating four-note call (a doorbell's ding-dong twice, in a brighter timbre), generated with
 * Web Audio oscillators (no sound files, nothing fetched), so the three differ by pitch, timbre and
 * rhythm alone.
 *
 * Browsers block audio until the user interacts with the page (autoplay policy): `listenForFirstGesture`
 * creates the one AudioContext (or resumes it) inside the first `pointerdown` / `keydown`, so the
 * verdict that follows a tap on 'Start Camera' or an Enter in the manual field is heard. Nothing here
 * throws: a browser without Web Audio, or one that refuses it, stays silent.
 */
import { readDeviceSettings } from './device-settings.ts';
import type { VerdictCue } from './verdict-cue.ts';

/** One note: its pitch in Hz, its length in ms and the oscillator's wave shape. */
export interface Tone {
  frequencyHz: number;
  durationMs: number;
  wave: OscillatorType;
}

/** The notes of each verdict cue, played one after another with `TONE_GAP_MS` between them. */
export const VERDICT_TONES: Record<VerdictCue, readonly Tone[]> = {
  // A bright rising fifth: short and pleasant, heard as "yes".
  approved: [
    { frequencyHz: 880, durationMs: 90, wave: 'sine' },
    { frequencyHz: 1320, durationMs: 150, wave: 'sine' },
  ],
  // A low, harsh falling pair, longer than the approval: heard as "no" over a noisy door.
  denied: [
    { frequencyHz: 220, durationMs: 180, wave: 'square' },
    { frequencyHz: 165, durationMs: 280, wave: 'square' },
  ],
  // Approved, but look up: high-low twice, triangle (between the sine's softness and the square's
  // buzz), longer than either — it sounds like neither a plain yes nor a no.
  attention: [
    { frequencyHz: 1319, durationMs: 140, wave: 'triangle' },
    { frequencyHz: 988, durationMs: 140, wave: 'triangle' },
    { frequencyHz: 1319, durationMs: 140, wave: 'triangle' },
    { frequencyHz: 988, durationMs: 260, wave: 'triangle' },
  ],
};

/** Silence between two notes of one verdict, in ms. */
export const TONE_GAP_MS = 40;

/** Peak gain of a note (0..1): clearly audible, short of clipping on phone speakers. */
const PEAK_GAIN = 0.3;
/** Fade-in and fade-out of each note, in ms, so notes do not click. */
const FADE_MS = 8;

type AudioContextClass = typeof AudioContext;

/** The page's AudioContext constructor (Safari < 14.1 names it webkitAudioContext), or null. */
function audioContextClass(): AudioContextClass | null {
  const scope = globalThis as typeof globalThis & { webkitAudioContext?: AudioContextClass };
  return scope.AudioContext ?? scope.webkitAudioContext ?? null;
}

export interface VerdictSound {
  /**
   * Creates or resumes the AudioContext on the first `pointerdown` / `keydown` on `target` while
   * sound is on, then stops listening once the context runs. Returns the function that stops listening.
   */
  listenForFirstGesture(target?: Window): () => void;
  /** Plays the notes of `cue` now when sound is on; else does nothing. Never throws. */
  play(cue: VerdictCue): void;
  /**
   * Closes the AudioContext and forgets it: the next gesture or verdict makes a new one, as after a
   * fresh start of the app. The app never calls it; the web tests' setup does after each test file
   * (src/test/setup.ts, docs/decisions/065), so a file's stand-in AudioContext is the one it records.
   * Never throws.
   */
  reset(): void;
}

/**
 * A verdict sound player holding one AudioContext.
 * @param isEnabled read at every gesture and every verdict: the 'Sound' switch.
 */
export function createVerdictSound({ isEnabled }: { isEnabled: () => boolean }): VerdictSound {
  let context: AudioContext | null = null;

  /** The context, created on first need; null without Web Audio. Resumed when suspended. */
  const wakeContext = (): AudioContext | null => {
    try {
      if (context === null) {
        const Context = audioContextClass();
        if (Context === null) return null;
        context = new Context();
      }
      if (context.state === 'suspended') void context.resume().catch(() => undefined);
      return context;
    } catch {
      return null;
    }
  };

  const playTones = (audio: AudioContext, tones: readonly Tone[]) => {
    // A little ahead of now, so the first note is not cut by scheduling latency.
    let start = audio.currentTime + 0.01;
    const fade = FADE_MS / 1000;
    for (const tone of tones) {
      const end = start + tone.durationMs / 1000;
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = tone.wave;
      oscillator.frequency.setValueAtTime(tone.frequencyHz, start);
      gain.gain.setValueAtTime(0, start);
      gain.gain.linearRampToValueAtTime(PEAK_GAIN, start + fade);
      gain.gain.setValueAtTime(PEAK_GAIN, end - fade);
      gain.gain.linearRampToValueAtTime(0, end);
      oscillator.connect(gain);
      gain.connect(audio.destination);
      oscillator.start(start);
      oscillator.stop(end);
      start = end + TONE_GAP_MS / 1000;
    }
  };

  return {
    listenForFirstGesture(target = window) {
      const options = { capture: true, passive: true } as const;
      const stop = () => {
        target.removeEventListener('pointerdown', onGesture, options);
        target.removeEventListener('keydown', onGesture, options);
      };
      function onGesture() {
        if (!isEnabled()) return;
        const audio = wakeContext();
        // Running (or no Web Audio at all): nothing left to unlock.
        if (audio === null || audio.state === 'running') stop();
      }
      target.addEventListener('pointerdown', onGesture, options);
      target.addEventListener('keydown', onGesture, options);
      return stop;
    },
    play(cue) {
      if (!isEnabled()) return;
      const audio = wakeContext();
      if (audio === null) return;
      try {
        playTones(audio, VERDICT_TONES[cue]);
      } catch {
        // A refused or closed context: the verdict is still shown and (if on) felt.
      }
    },
    reset() {
      const closing = context;
      context = null;
      try {
        void closing?.close().catch(() => undefined);
      } catch {
        // Already closed, or a context without close(): forgotten all the same.
      }
    },
  };
}

/** The app's player, following the 'Sound' switch (the `isSoundOn` field of lib/device-settings.ts). */
export const verdictSound = createVerdictSound({ isEnabled: () => readDeviceSettings().isSoundOn });
