import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { FIRST_PAINT_WAIT_LIMIT_MS, useAfterFirstPaint } from './use-after-first-paint.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

test('false on the first render; true once a frame has been painted and a task has run after it', () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
  const { result } = renderHook(() => useAfterFirstPaint());
  expect(result.current).toBe(false);
  // The frame's callback queues a task; the answer changes in that task, after the paint.
  act(() => vi.advanceTimersToNextFrame());
  expect(result.current).toBe(false);
  act(() => vi.advanceTimersByTime(1));
  expect(result.current).toBe(true);
});

test('a page that gets no animation frames (a background tab) waits at most the limit', () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  // The browser holds every frame back.
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
  const { result } = renderHook(() => useAfterFirstPaint());
  act(() => vi.advanceTimersByTime(FIRST_PAINT_WAIT_LIMIT_MS - 1));
  expect(result.current).toBe(false);
  act(() => vi.advanceTimersByTime(1));
  expect(result.current).toBe(true);
});
