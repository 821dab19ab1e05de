/**
 * public/polyfills.js (docs/decisions/090): run, as index.html runs it, in a window whose URL and
 * AbortSignal lack URL.canParse, AbortSignal.timeout and AbortSignal.any (a WebView at the floor),
 * and in one that has them (left alone). A fresh vm context each time, so this file's own globals
 * are never changed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';

const SCRIPT = readFileSync(join(import.meta.dirname, '..', '..', 'public', 'polyfills.js'), 'utf8');

interface Floor {
  URL: typeof URL;
  AbortSignal: typeof AbortSignal;
}

/** A window at the floor: URL and AbortSignal without the three statics; everything else the real thing. */
function runAtFloor(): Floor {
  class UrlAtFloor extends URL {}
  Object.defineProperty(UrlAtFloor, 'canParse', { value: undefined, configurable: true, writable: true });
  // Only the statics are read and written on AbortSignal; its instances come from the real AbortController.
  const signalAtFloor = function AbortSignal() {} as unknown as typeof AbortSignal;
  const window = { URL: UrlAtFloor, AbortSignal: signalAtFloor, AbortController, DOMException, setTimeout, Array, Object };
  runInNewContext(SCRIPT, window);
  return { URL: window.URL, AbortSignal: window.AbortSignal };
}

describe('public/polyfills.js on a WebView at the floor', () => {
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
});

test('public/polyfills.js leaves a browser that has the APIs alone', () => {
  const own = { canParse: URL.canParse, timeout: AbortSignal.timeout, any: AbortSignal.any };
  const window = { URL, AbortSignal, AbortController, DOMException, setTimeout, Array, Object };
  runInNewContext(SCRIPT, window);
  expect({ canParse: URL.canParse, timeout: AbortSignal.timeout, any: AbortSignal.any }).toEqual(own);
});
