/**
 * Records what the page plays for a verdict (issue 10 item 3): a stand-in for the browser's
 * AudioContext that logs every note (wave, frequency in Hz, length in ms) instead of sounding it,
 * and a `navigator.vibrate` that logs each pattern. Installed before the app's scripts run.
 */
import type { Page } from '@playwright/test';

export interface RecordedFeedback {
  /** How many AudioContexts the page made. */
  contexts: number;
  notes: Array<{ wave: string; frequencyHz: number; durationMs: number }>;
  vibrations: number[][];
}

/** Stubs AudioContext and navigator.vibrate in every document `page` opens from now on. */
export async function recordFeedback(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record: RecordedFeedback = { contexts: 0, notes: [], vibrations: [] };
    Object.assign(window, { __verdictFeedback: record });
    const param = { setValueAtTime: () => param, linearRampToValueAtTime: () => param };
    class RecordingAudioContext {
      state = 'suspended';
      currentTime = 0;
      destination = {};
      constructor() {
        record.contexts += 1;
      }
      resume() {
        this.state = 'running';
        return Promise.resolve();
      }
      createGain() {
        return { gain: param, connect: () => undefined };
      }
      createOscillator() {
        const note = { wave: 'sine', frequencyHz: 0, durationMs: 0 };
        let startS = 0;
        return {
          set type(wave: string) {
            note.wave = wave;
          },
          frequency: {
            setValueAtTime: (value: number) => {
              note.frequencyHz = value;
            },
          },
          connect: () => undefined,
          start: (timeS: number) => {
            startS = timeS;
            record.notes.push(note);
          },
          stop: (timeS: number) => {
            note.durationMs = Math.round((timeS - startS) * 1000);
          },
        };
      }
    }
    Object.assign(window, { AudioContext: RecordingAudioContext });
    Object.defineProperty(Navigator.prototype, 'vibrate', {
      configurable: true,
      value: (pattern: number | number[]) => {
        record.vibrations.push(Array.isArray(pattern) ? [...pattern] : [pattern]);
        return true;
      },
    });
  });
}

/** What was recorded in the current document so far. */
export async function recordedFeedback(page: Page): Promise<RecordedFeedback> {
  return page.evaluate(() => (window as unknown as { __verdictFeedback: RecordedFeedback }).__verdictFeedback);
}
