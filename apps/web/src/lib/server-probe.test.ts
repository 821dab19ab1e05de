import { apiPaths } from '@gatecheck/contract';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, onTestFinished, test, vi } from 'vitest';
import { OFFLINE_PROBE_INTERVAL_MS } from '@/config/constants.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { watchServer } from './server-probe.ts';

let probes = 0;
let isDown = false;
let isHanging = false;

beforeEach(() => {
  probes = 0;
  isDown = false;
  isHanging = false;
  server.use(
    http.get(apiUrl(apiPaths.health), async () => {
      probes += 1;
      // A connection that never answers (until the browser gives up on it).
      if (isHanging) await new Promise(() => undefined);
      return isDown ? HttpResponse.error() : HttpResponse.json({ status: 'ok' });
    }),
  );
  // Only the probe's interval is faked; requests and promises run for real.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

test("the 'Offline' strip and the scanner waiting together send one probe per interval, and each hears every answer", async () => {
  const strip = vi.fn();
  const scanner = vi.fn();
  const stopStrip = watchServer(strip, { probeNow: true });
  const stopScanner = watchServer(scanner);
  try {
    // The strip's probe at once; its answer reaches both.
    await vi.waitFor(() => expect(scanner).toHaveBeenCalledTimes(1));
    expect(probes).toBe(1);
    for (const expected of [2, 3]) {
      vi.advanceTimersByTime(OFFLINE_PROBE_INTERVAL_MS);
      await vi.waitFor(() => expect(scanner).toHaveBeenCalledTimes(expected));
      expect(probes).toBe(expected);
    }
    expect(strip).toHaveBeenCalledTimes(3);
  } finally {
    stopStrip();
    stopScanner();
  }
});

test('an unanswered probe tells nobody; probing goes on while anyone watches and stops with the last', async () => {
  isDown = true;
  const first = vi.fn();
  const second = vi.fn();
  const stopFirst = watchServer(first);
  const stopSecond = watchServer(second);
  onTestFinished(() => {
    stopFirst();
    stopSecond();
  });
  vi.advanceTimersByTime(OFFLINE_PROBE_INTERVAL_MS);
  await vi.waitFor(() => expect(probes).toBe(1));
  stopFirst();
  isDown = false;
  vi.advanceTimersByTime(OFFLINE_PROBE_INTERVAL_MS);
  await vi.waitFor(() => expect(second).toHaveBeenCalledTimes(1));
  expect(first).not.toHaveBeenCalled();
  stopSecond();
  vi.advanceTimersByTime(3 * OFFLINE_PROBE_INTERVAL_MS);
  // Give a stray request time to arrive before counting.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(probes).toBe(2);
});

test('a probe that never gets an answer is given up after one interval, so the next one goes out', async () => {
  isHanging = true;
  const watcher = vi.fn();
  const stop = watchServer(watcher, { probeNow: true });
  onTestFinished(stop);
  await vi.waitFor(() => expect(probes).toBe(1));
  isHanging = false;
  // The hung probe is given up within an interval of real time; the interval's next probe then goes out.
  await new Promise((resolve) => setTimeout(resolve, OFFLINE_PROBE_INTERVAL_MS));
  vi.advanceTimersByTime(OFFLINE_PROBE_INTERVAL_MS);
  await vi.waitFor(() => expect(watcher).toHaveBeenCalledTimes(1));
  expect(probes).toBe(2);
}, 15_000);

test("the browser's 'online' event probes at once, while anyone watches", async () => {
  const watcher = vi.fn();
  const stop = watchServer(watcher);
  window.dispatchEvent(new Event('online'));
  await vi.waitFor(() => expect(watcher).toHaveBeenCalledTimes(1));
  expect(probes).toBe(1);
  stop();
  window.dispatchEvent(new Event('online'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(probes).toBe(1);
});

/** Sets what `document.visibilityState` reads (jsdom's is always 'visible') and says it changed. */
function setPageVisibility(state: DocumentVisibilityState): void {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

test('a page shown again probes at once, a page hidden does not, while anyone watches', async () => {
  onTestFinished(() => {
    Reflect.deleteProperty(document, 'visibilityState');
  });
  const watcher = vi.fn();
  const stop = watchServer(watcher);
  setPageVisibility('hidden');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(probes).toBe(0);
  setPageVisibility('visible');
  await vi.waitFor(() => expect(watcher).toHaveBeenCalledTimes(1));
  expect(probes).toBe(1);
  stop();
  setPageVisibility('hidden');
  setPageVisibility('visible');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(probes).toBe(1);
});
