/**
 * Whether the server offers sign-up (GET /auth/options, docs/decisions/018), for the sign-in
 * screen's 'Sign up' link, without the query cache (issue 24 item 3, docs/decisions/098). Asked when
 * the screen shows, retried as SPEC §9 says; a call that finally fails means "no sign-up", the
 * server's default. The sign-up screen asks through its query (account-api.ts `authOptionsQueries`).
 */
import { useState, useSyncExternalStore } from 'react';
import { withRetries } from '@/lib/retry-policy.ts';
import { fetchAuthOptions } from './api.ts';

interface SignUpOfferWatch {
  subscribe(listener: () => void): () => void;
  isOffered(): boolean;
}

/** Asks the server while someone listens (the screen is shown); stops asking when the last one leaves. */
function watchSignUpOffer(): SignUpOfferWatch {
  let isOffered = false;
  const listeners = new Set<() => void>();
  let asking: AbortController | undefined;
  return {
    isOffered: () => isOffered,
    subscribe(listener) {
      listeners.add(listener);
      if (!asking) {
        const controller = new AbortController();
        asking = controller;
        withRetries(() => fetchAuthOptions(controller.signal), controller.signal).then(
          (answer) => {
            if (controller.signal.aborted || answer.isSignUpAllowed === isOffered) return;
            isOffered = answer.isSignUpAllowed;
            for (const notify of listeners) notify();
          },
          () => {
            // No answer, or a refusal: no sign-up, the server's default.
          },
        );
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          asking?.abort();
          asking = undefined;
        }
      };
    },
  };
}

/**
 * True once the server said it offers sign-up; false before its answer, when it does not, when it
 * cannot be asked, and in the build's prerender and while hydrating (the HTML cannot know).
 */
export function useIsSignUpOffered(): boolean {
  const [watch] = useState(watchSignUpOffer);
  return useSyncExternalStore(watch.subscribe, watch.isOffered, () => false);
}
