/**
 * Stepping through the flow (SPEC §4 "Going back steps one screen backward") so that in-app Back,
 * the left-edge swipe, the browser's back and Android's back button agree (issue 15 item 7, decision
 * 028): a step forward records in the new history entry which screen it came from; Back pops that
 * entry (history back) when it came from the screen Back goes to, and otherwise replaces it, so Back
 * never adds an entry that the phone's back button would then return through.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod/mini';
import type { AppPath } from '@/config/paths.ts';

/** The history entry's state written by a step forward: the path of the screen it came from. */
const StepState = z.object({ cameFrom: z.string() });

/** Returns `stepForward(to)`: goes to `to` in a new history entry that remembers this screen. */
export function useStepForward(): (to: AppPath) => Promise<void> {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback((to: AppPath) => Promise.resolve(navigate(to, { state: { cameFrom: pathname } })), [navigate, pathname]);
}

/**
 * Returns `goBack()`, which shows `target`: by history back when this entry was reached by a step
 * forward from `target`, else by replacing this entry with `target`.
 *
 * @param onLeft runs once this screen has been left (after the history back has landed, or right
 *   after the replace), e.g. to clear a selection whose absence would redirect this screen.
 */
export function useBack(target: AppPath, onLeft?: () => void): () => void {
  const navigate = useNavigate();
  const { state } = useLocation();
  const onLeftRef = useRef(onLeft);
  useEffect(() => {
    onLeftRef.current = onLeft;
  }, [onLeft]);

  return useCallback(() => {
    const step = z.safeParse(StepState, state);
    const leave = () => onLeftRef.current?.();
    if (step.success && step.data.cameFrom === target) {
      window.addEventListener('popstate', leave, { once: true });
      void navigate(-1);
    } else {
      void navigate(target, { replace: true });
      leave();
    }
  }, [navigate, state, target]);
}
