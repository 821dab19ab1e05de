import { fireEvent, renderHook } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { isSwipeBack, useSwipeBack } from './use-swipe-back.ts';

describe('swipe-back thresholds (SPEC §9)', () => {
  test('a swipe from within 50 px of the left edge, over 100 px right, under 100 px drift goes back', () => {
    expect(isSwipeBack({ x: 10, y: 300 }, { x: 200, y: 320 })).toBe(true);
    expect(isSwipeBack({ x: 50, y: 300 }, { x: 151, y: 399 })).toBe(true);
  });

  test('a swipe starting more than 50 px from the edge does not', () => {
    expect(isSwipeBack({ x: 51, y: 300 }, { x: 300, y: 300 })).toBe(false);
  });

  test('a swipe of 100 px or less does not', () => {
    expect(isSwipeBack({ x: 10, y: 300 }, { x: 110, y: 300 })).toBe(false);
  });

  test('a swipe drifting 100 px or more vertically does not', () => {
    expect(isSwipeBack({ x: 10, y: 300 }, { x: 250, y: 400 })).toBe(false);
    expect(isSwipeBack({ x: 10, y: 300 }, { x: 250, y: 200 })).toBe(false);
  });

  test('a swipe to the left does not', () => {
    expect(isSwipeBack({ x: 40, y: 300 }, { x: 0, y: 300 })).toBe(false);
  });
});

function touch(type: 'touchStart' | 'touchEnd', x: number, y: number) {
  const point = { clientX: x, clientY: y, identifier: 0, target: window };
  fireEvent[type](window, type === 'touchStart' ? { touches: [point], changedTouches: [point] } : { touches: [], changedTouches: [point] });
}

function pointer(type: 'pointerDown' | 'pointerUp', x: number, y: number, pointerType = 'mouse') {
  fireEvent[type](window, { clientX: x, clientY: y, pointerType, pointerId: 1 });
}

describe('useSwipeBack', () => {
  test('a touch swipe from the left edge goes back once', () => {
    const onBack = vi.fn();
    renderHook(() => useSwipeBack(onBack));
    touch('touchStart', 20, 300);
    touch('touchEnd', 180, 330);
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  test('a touch swipe that starts away from the edge, is too short or drifts is ignored', () => {
    const onBack = vi.fn();
    renderHook(() => useSwipeBack(onBack));
    touch('touchStart', 80, 300);
    touch('touchEnd', 300, 300);
    touch('touchStart', 20, 300);
    touch('touchEnd', 100, 300);
    touch('touchStart', 20, 300);
    touch('touchEnd', 250, 450);
    expect(onBack).not.toHaveBeenCalled();
  });

  test('a mouse or pen drag from the left edge goes back', () => {
    const onBack = vi.fn();
    renderHook(() => useSwipeBack(onBack));
    pointer('pointerDown', 5, 200);
    pointer('pointerUp', 160, 210);
    pointer('pointerDown', 5, 200, 'pen');
    pointer('pointerUp', 160, 210, 'pen');
    expect(onBack).toHaveBeenCalledTimes(2);
  });

  test('a pointer drag that starts away from the edge or drifts is ignored', () => {
    const onBack = vi.fn();
    renderHook(() => useSwipeBack(onBack));
    pointer('pointerDown', 70, 200);
    pointer('pointerUp', 260, 200);
    pointer('pointerDown', 5, 200);
    pointer('pointerUp', 260, 320);
    expect(onBack).not.toHaveBeenCalled();
  });

  test('touch pointer events are left to the touch handler, so one finger goes back once', () => {
    const onBack = vi.fn();
    renderHook(() => useSwipeBack(onBack));
    pointer('pointerDown', 5, 200, 'touch');
    touch('touchStart', 5, 200);
    pointer('pointerUp', 200, 200, 'touch');
    touch('touchEnd', 200, 200);
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  test('a cancelled gesture does not go back', () => {
    const onBack = vi.fn();
    renderHook(() => useSwipeBack(onBack));
    pointer('pointerDown', 5, 200);
    fireEvent.pointerCancel(window, { pointerId: 1 });
    pointer('pointerUp', 200, 200);
    expect(onBack).not.toHaveBeenCalled();
  });

  test('the gesture stops working once the screen is gone', () => {
    const onBack = vi.fn();
    const { unmount } = renderHook(() => useSwipeBack(onBack));
    unmount();
    touch('touchStart', 20, 300);
    touch('touchEnd', 180, 300);
    expect(onBack).not.toHaveBeenCalled();
  });
});
