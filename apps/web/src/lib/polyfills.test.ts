/**
 * src/boot/polyfills.js (docs/decisions/090): run, as index.html runs it, in a window whose URL,
 * AbortSignal and String lack URL.canParse, AbortSignal.timeout, AbortSignal.any and
 * String.prototype.isWellFormed (a WebView at the floor), and in one that has them (left alone). A
 * fresh vm context each time, so this file's own globals are never changed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, runInContext, runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';

const SCRIPT = readFileSync(join(import.meta.dirname, '..', 'boot', 'polyfills.js'), 'utf8');

interface Floor {
  URL: typeof URL;
  AbortSignal: typeof AbortSignal;
  /** Runs an expression in the floor's window (its own String, with the fallback installed). */
  evaluate: (expression: string) => unknown;
}

/** A window at the floor: URL and AbortSignal without the three statics; everything else the real thing. */
function runAtFloor(): Floor {
  class UrlAtFloor extends URL {}
  Object.defineProperty(UrlAtFloor, 'canParse', { value: undefined, configurable: true, writable: true });
  // Only the statics are read and written on AbortSignal; its instances come from the real AbortController.
  const signalAtFloor = function AbortSignal() {} as unknown as typeof AbortSignal;
  const window = createContext({ URL: UrlAtFloor, AbortSignal: signalAtFloor, AbortController, DOMException, setTimeout });
  // The context's own String (a vm context has its own built-ins), as a WebView before Chrome 111 has it.
  runInContext('delete String.prototype.isWellFormed', window);
  runInContext(SCRIPT, window);
  return { URL: window.URL as typeof URL, AbortSignal: window.AbortSignal as typeof AbortSignal, evaluate: (expression) => runInContext(expression, window) };
}

describe('src/boot/polyfills.js on a WebView at the floor', () => {
  test('URL.canParse says whether new URL(url, base) would throw', () => {
    const { URL: FloorUrl } = runAtFloor();
    expect(FloorUrl.canParse('https://gate.example.com/api')).toBe(true);
    expect(FloorUrl.canParse('http://192.168.1.20:3000')).toBe(true);
    expect(FloorUrl.canParse('gate example')).toBe(false);
    expect(FloorUrl.canParse('https://')).toBe(false);
    expect(FloorUrl.canParse('/api/auth/options', 'https://gate.example.com')).toBe(true);
    expect(FloorUrl.canParse('/api/auth/options')).toBe(false);
  });

  test('AbortSignal.timeout(ms) aborts after ms with a TimeoutError', async () => {
    const { AbortSignal: FloorSignal } = runAtFloor();
    const signal = FloorSignal.timeout(20);
    expect(signal.aborted).toBe(false);
    await new Promise((resolve) => signal.addEventListener('abort', resolve));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });

  test('AbortSignal.any aborts with the reason of the first of its signals to abort, and at once when one already has', () => {
    const { AbortSignal: FloorSignal } = runAtFloor();
    const first = new AbortController();
    const second = new AbortController();
    const combined = FloorSignal.any([first.signal, second.signal]);
    expect(combined.aborted).toBe(false);
    second.abort('left the screen');
    expect(combined.aborted).toBe(true);
    expect(combined.reason).toBe('left the screen');
    first.abort('later');
    expect(combined.reason).toBe('left the screen');

    const done = new AbortController();
    done.abort('already');
    const immediate = FloorSignal.any([new AbortController().signal, done.signal]);
    expect(immediate.aborted).toBe(true);
    expect(immediate.reason).toBe('already');
    expect(FloorSignal.any([]).aborted).toBe(false);
  });

  test('String.prototype.isWellFormed is false exactly when a UTF-16 surrogate stands alone', () => {
    const floor = runAtFloor();
    expect(floor.evaluate("typeof String.prototype.isWellFormed")).toBe('function');
    for (const text of ['', 'GC-ABC', 'Zoë', '😀👍🏽', '\uFEFF\u202E', 'GC-\u0000']) expect(floor.evaluate(`${JSON.stringify(text)}.isWellFormed()`), text).toBe(true);
    for (const text of ['☁\udc4c', '\ud83d', 'a\ud800b', '\udfff\ud800', '😀\ude00', '\ud83d😀']) expect(floor.evaluate(`${JSON.stringify(text)}.isWellFormed()`), JSON.stringify(text)).toBe(false);
  });
});

test('src/boot/polyfills.js leaves a browser that has the APIs alone', () => {
  const own = { canParse: URL.canParse, timeout: AbortSignal.timeout, any: AbortSignal.any };
  const window = { URL, AbortSignal, AbortController, DOMException, setTimeout };
  const contextsOwn = runInNewContext(`${SCRIPT}; String.prototype.isWellFormed`, window) as unknown;
  expect({ canParse: URL.canParse, timeout: AbortSignal.timeout, any: AbortSignal.any }).toEqual(own);
  expect(String(contextsOwn)).toMatch(/\[native code\]/);
});
