/**
 * Whether this component runs in the browser with React in charge of it: false in the build's
 * prerender of the sign-in screen (docs/decisions/082) and during the hydration of that HTML, true
 * from the render after hydration on (and from the first render of a screen rendered in the browser).
 * Controls that must not act before React handles them (a form's submit) are disabled while false.
 */
import { useSyncExternalStore } from 'react';

/** Nothing to subscribe to: the answer changes once, between hydration and the next render. */
const subscribeToNothing = () => () => undefined;

/** True once React runs this component in the browser; false in the prerender and while hydrating it. */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
