/**
 * A USB or Bluetooth barcode scanner in keyboard mode ("keyboard wedge") as a `ScanSource` (SEAMS §1,
 * issue 10 item 7): such a scanner types the code as a burst of keystrokes and presses Enter. While
 * the source runs, a burst of at least 4 characters, each key at most 50 ms after the one before,
 * ending in Enter, is reported as one code — also when no field has focus.
 *
 * Keys typed into an editable field (input, textarea, select, contenteditable) are left alone: the
 * manual entry form handles those as SPEC §5 says (a scanner typing into the focused field fills it
 * and its Enter submits the form). A person typing elsewhere is too slow to make a burst, so stray
 * keys never become a code. Modifier keys (Shift for capitals) do not break a burst; any other
 * non-character key does.
 */
import { WEDGE_MAX_KEY_GAP_MS, WEDGE_MIN_CODE_CHARS } from '@/config/constants.ts';
import type { ScanSource } from './scan-source.ts';

/** Options of `createKeyboardWedgeSource`; the defaults are the app's. */
export interface KeyboardWedgeOptions {
  /** Where keydown events are listened for; default `window`. */
  target?: EventTarget;
  /** The clock, in ms; default `performance.now`. Tests pass their own. */
  now?: () => number;
  /** Longest gap between two keys of a burst, in ms (default 50). */
  maxKeyGapMs?: number;
  /** Fewest characters of a code (default 4). */
  minCodeChars?: number;
}

const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock']);

/** Whether keys aimed at `target` are typed into a field (the field then handles them itself). */
function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  // `closest` as well: not every DOM (jsdom) computes isContentEditable.
  if (target.isContentEditable || target.closest('[contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]')) return true;
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/**
 * A keyboard-wedge source: kind 'keyboard-wedge', preview 'none', never a torch (`setTorch`
 * rejects with an Error). `start` listens for keydown on the target and resolves 'active'; the
 * `video` and `facing` options are ignored. It reports every burst, the same code as often as it is
 * scanned: debouncing repeats is the caller's job.
 */
export function createKeyboardWedgeSource(options: KeyboardWedgeOptions = {}): ScanSource {
  const { now = () => performance.now(), maxKeyGapMs = WEDGE_MAX_KEY_GAP_MS, minCodeChars = WEDGE_MIN_CODE_CHARS } = options;
  let removeListener: (() => void) | null = null;

  const detach = () => {
    removeListener?.();
    removeListener = null;
  };

  return {
    kind: 'keyboard-wedge',
    preview: 'none',
    // Listening begins before `start` returns (not after a microtask), so no key of a burst is missed.
    start({ onCode }) {
      detach();
      const target = options.target ?? window;
      let buffer = '';
      let lastKeyAt = Number.NEGATIVE_INFINITY;
      const listener = (event: Event) => {
        if (!(event instanceof KeyboardEvent) || isEditable(event.target)) return;
        if (MODIFIER_KEYS.has(event.key)) return;
        const at = now();
        const isQuick = at - lastKeyAt <= maxKeyGapMs;
        lastKeyAt = at;
        if (event.key === 'Enter') {
          const code = buffer;
          buffer = '';
          if (isQuick && Array.from(code).length >= minCodeChars) {
            // The Enter ends a scan: it must not also press a focused button.
            event.preventDefault();
            onCode(code);
          }
          return;
        }
        if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) {
          buffer = '';
          return;
        }
        // A slow key starts a new burst.
        buffer = isQuick ? buffer + event.key : event.key;
      };
      target.addEventListener('keydown', listener);
      removeListener = () => target.removeEventListener('keydown', listener);
      return Promise.resolve('active');
    },
    stop: async () => detach(),
    hasTorch: () => false,
    setTorch: async () => {
      throw new Error('A keyboard-wedge scanner has no torch.');
    },
  };
}
