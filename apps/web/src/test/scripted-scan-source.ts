/**
 * A `ScanSource` for screen tests (SEAMS §1): the test decides what the "camera" reads (`show`) and
 * whether it has a torch, and reads back what the screen asked of it. It implements the interface;
 * it does not replace any module of ours.
 */
import type { ScanSource, ScanSourceStart, ScanSourceStartOptions } from '@/lib/scan-source/scan-source.ts';

export interface ScriptedScanSource extends ScanSource {
  /** Every `start` call's options, in order. */
  readonly starts: ScanSourceStartOptions[];
  /** How many times `stop` was called. */
  readonly stopCount: number;
  /** Every `setTorch` argument, in order. */
  readonly torchCalls: boolean[];
  /** Whether the source is running now. */
  readonly isActive: boolean;
  /** Reports `code` as read (as a camera does on each frame); ignored while not running. */
  show(code: string): void;
}

/**
 * @param options.outcome what `start` resolves to (default 'active').
 * @param options.torch whether the camera has a torch (default false).
 */
export function createScriptedScanSource(options: { outcome?: ScanSourceStart; torch?: boolean } = {}): ScriptedScanSource {
  const { outcome = 'active', torch = false } = options;
  const starts: ScanSourceStartOptions[] = [];
  const torchCalls: boolean[] = [];
  let onCode: ((code: string) => void) | null = null;
  let stopCount = 0;
  return {
    kind: 'web-camera',
    preview: 'video-element',
    starts,
    torchCalls,
    get stopCount() {
      return stopCount;
    },
    get isActive() {
      return onCode !== null;
    },
    async start(startOptions) {
      starts.push(startOptions);
      onCode = outcome === 'active' ? startOptions.onCode : null;
      return outcome;
    },
    async stop() {
      stopCount += 1;
      onCode = null;
    },
    hasTorch: () => torch && onCode !== null,
    async setTorch(on) {
      if (!torch || onCode === null) throw new Error('no torch');
      torchCalls.push(on);
    },
    show(code) {
      onCode?.(code);
    },
  };
}
