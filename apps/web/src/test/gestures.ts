/** Synthetic gestures for swipe-back tests (SPEC §9), in viewport px. */
import { fireEvent } from '@testing-library/react';

/** A one-finger touch swipe from `from` to `to`. */
export function touchSwipe(from: { x: number; y: number }, to: { x: number; y: number }): void {
  const start = { clientX: from.x, clientY: from.y, identifier: 0, target: window };
  const end = { clientX: to.x, clientY: to.y, identifier: 0, target: window };
  fireEvent.touchStart(window, { touches: [start], changedTouches: [start] });
  fireEvent.touchEnd(window, { touches: [], changedTouches: [end] });
}

/** A mouse drag from `from` to `to`. */
export function pointerSwipe(from: { x: number; y: number }, to: { x: number; y: number }): void {
  fireEvent.pointerDown(window, { clientX: from.x, clientY: from.y, pointerType: 'mouse', pointerId: 1 });
  fireEvent.pointerUp(window, { clientX: to.x, clientY: to.y, pointerType: 'mouse', pointerId: 1 });
}
