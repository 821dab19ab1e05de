/**
 * Whether the browser has painted the component's first render: false on that render, true from
 * the next one, which comes right after the paint (docs/decisions/119). A screen renders the parts
 * nobody needs in its first frame (and loads their code) only then, so the first frame shows
 * sooner: the browser does not fetch, evaluate and lay them out before it.
 */
import { useEffect, useState } from 'react';

/**
 * The longest wait for the frame, in ms: a page that is not shown (a tab in the background) gets
 * no animation frames, and its parts must not wait for it to be shown.
 */
export const FIRST_PAINT_WAIT_LIMIT_MS = 500;

/** False until the browser has painted the first render of the calling component (at most FIRST_PAINT_WAIT_LIMIT_MS later), then true. */
export function useAfterFirstPaint(): boolean {
  const [hasPainted, setHasPainted] = useState(false);
  useEffect(() => {
    if (hasPainted) return;
    const done = () => setHasPainted(true);
    let afterFrame: ReturnType<typeof setTimeout> | undefined;
    // A task queued from an animation frame's callback runs after that frame has been painted.
    const frame = requestAnimationFrame(() => {
      afterFrame = setTimeout(done, 0);
    });
    const limit = setTimeout(done, FIRST_PAINT_WAIT_LIMIT_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(afterFrame);
      clearTimeout(limit);
    };
  }, [hasPainted]);
  return hasPainted;
}
