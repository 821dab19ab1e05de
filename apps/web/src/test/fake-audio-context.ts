/**
 * A stand-in for the browser's AudioContext (jsdom has none), installed as a global: it records the
 * contexts made, their resume() calls and every note scheduled (oscillator type, frequency in Hz,
 * start and stop in s of the context's clock), so tests can tell which sound was played.
 */
import { vi } from 'vitest';

export interface RecordedNote {
  wave: string;
  frequencyHz: number;
  startS: number;
  stopS: number;
}

export interface AudioRecorder {
  /** One entry per `new AudioContext()`. */
  contexts: FakeAudioContext[];
  /** Every note scheduled by any context, in order. */
  notes: RecordedNote[];
}

class FakeParam {
  value = 0;
  constructor(private readonly onSet: (value: number, timeS: number) => void = () => undefined) {}
  setValueAtTime(value: number, timeS: number) {
    this.onSet(value, timeS);
    return this;
  }
  linearRampToValueAtTime() {
    return this;
  }
}

export class FakeAudioContext {
  state: 'suspended' | 'running' | 'closed';
  currentTime = 12.5;
  destination = {};
  resumeCalls = 0;
  constructor(
    private readonly recorder: AudioRecorder,
    initialState: 'suspended' | 'running',
  ) {
    this.state = initialState;
  }
  resume(): Promise<void> {
    this.resumeCalls += 1;
    this.state = 'running';
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.state = 'closed';
    return Promise.resolve();
  }
  createGain() {
    return { gain: new FakeParam(), connect: () => undefined };
  }
  createOscillator() {
    const note: RecordedNote = { wave: 'sine', frequencyHz: Number.NaN, startS: Number.NaN, stopS: Number.NaN };
    return {
      set type(wave: string) {
        note.wave = wave;
      },
      frequency: new FakeParam((value) => {
        note.frequencyHz = value;
      }),
      connect: () => undefined,
      start: (timeS: number) => {
        note.startS = timeS;
        this.recorder.notes.push(note);
      },
      stop: (timeS: number) => {
        note.stopS = timeS;
      },
    };
  }
}

/**
 * Installs the fake as `globalThis.AudioContext` (undo with `vi.unstubAllGlobals()`).
 * @param initialState the state a new context starts in: 'suspended' is what a browser gives
 *   before any user gesture.
 */
export function installFakeAudioContext(initialState: 'suspended' | 'running' = 'suspended'): AudioRecorder {
  const recorder: AudioRecorder = { contexts: [], notes: [] };
  vi.stubGlobal(
    'AudioContext',
    class extends FakeAudioContext {
      constructor() {
        super(recorder, initialState);
        recorder.contexts.push(this);
      }
    },
  );
  return recorder;
}
