/**
 * Left-edge swipe-back gesture (SPEC §2, §9): a gesture that starts within `SWIPE_EDGE_PX` (50 px) of
 * the left screen edge, ends more than `SWIPE_MIN_DX_PX` (100 px) further right and drifts
 * vertically less than `SWIPE_MAX_DY_PX` (100 px) calls `onBack` once.
 *
 * Works with touch events (phones) and with pointer events from a mouse or pen. Pointer events of
 * pointerType 'touch' are ignored because the same finger also produces touch events.
 */
import { useEffect, useRef } from 'react';
import { SWIPE_EDGE_PX, SWIPE_MAX_DY_PX, SWIPE_MIN_DX_PX } from '@/config/constants.ts';

interface Point {
  x: number;
  y: number;
}

/** True when a gesture from `start` to `end` (px, viewport coordinates) is a swipe back (SPEC §9). */
export function isSwipeBack(start: Point, end: Point): boolean {
  return start.x <= SWIPE_EDGE_PX && end.x - start.x > SWIPE_MIN_DX_PX && Math.abs(end.y - start.y) < SWIPE_MAX_DY_PX;
}

/** Calls `onBack` when the user swipes right from the left screen edge (SPEC §9 thresholds). */
export function useSwipeBack(onBack: () => void): void {
  const onBackRef = useRef(onBack);
  useEffect(() => {
    onBackRef.current = onBack;
  }, [onBack]);

  useEffect(() => {
    let start: Point | null = null;

    const begin = (point: Point) => {
      start = point;
    };
    const finish = (point: Point) => {
      const from = start;
      start = null;
      if (from && isSwipeBack(from, point)) onBackRef.current();
    };

    const onTouchStart = (event: TouchEvent) => {
      const touch = event.touches[0];
      if (touch) begin({ x: touch.clientX, y: touch.clientY });
    };
    const onTouchEnd = (event: TouchEvent) => {
      const touch = event.changedTouches[0];
      if (touch) finish({ x: touch.clientX, y: touch.clientY });
    };
    const onPointerDown = (event: PointerEvent) => {
      if (event.pointerType !== 'touch') begin({ x: event.clientX, y: event.clientY });
    };
    const onPointerUp = (event: PointerEvent) => {
      if (event.pointerType !== 'touch') finish({ x: event.clientX, y: event.clientY });
    };
    const cancel = () => {
      start = null;
    };

    window.addEventListener('touchstart', onTouchStart, { passive: true });
    window.addEventListener('touchend', onTouchEnd);
    window.addEventListener('touchcancel', cancel);
    window.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('pointerup', onPointerUp);
    window.addEventListener('pointercancel', cancel);
    return () => {
      window.removeEventListener('touchstart', onTouchStart);
      window.removeEventListener('touchend', onTouchEnd);
      window.removeEventListener('touchcancel', cancel);
      window.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('pointerup', onPointerUp);
      window.removeEventListener('pointercancel', cancel);
    };
  }, []);
}
