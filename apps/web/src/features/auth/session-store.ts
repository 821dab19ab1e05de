/**
 * The session of SPEC §4 as a small store of its own, outside TanStack Query, so the sign-in screen
 * and the route guard work before the query cache is loaded (issue 24 item 3, docs/decisions/098).
 * One store per app start (app/start-app.tsx), per build-time prerender and per test render.
 *
 * States (`SessionState`): 'loading' until the stored user has been checked (`check`, SPEC §4), then
 * 'authenticated' or 'unauthenticated' (with the reason the last check failed, SPEC §8). Sign-in,
 * logout and a session the server ended (`expire`) change it; each forgets the server answers cached
 * for the previous user (the query cache, if it was loaded, and the lists kept in IndexedDB), so one
 * user never sees another's data.
 */
import type { User } from '@/lib/entities.ts';
import type { QueryClientSlot } from '@/lib/query-client-slot.ts';
import { clearPersistedQueries } from '@/lib/query-persister.ts';
import { removeStoredUser } from '@/lib/stored-user.ts';
import { checkSession, login, logout, type Session } from './api.ts';
import type { SessionEndReason } from './auth-messages.ts';

/**
 * The session as the screens see it. `isUnconfirmed`: the stored user, kept because the server could
 * not be asked at start (offline start, docs/decisions/056); confirmed again once the server answers.
 */
export type SessionState =
  | { status: 'loading'; user: null; reason?: undefined; isUnconfirmed?: undefined }
  | { status: 'authenticated'; user: User; reason?: undefined; isUnconfirmed: boolean }
  | { status: 'unauthenticated'; user: null; reason?: SessionEndReason; isUnconfirmed?: undefined };

export interface SessionStore {
  /** The session now; the same object until it changes (for `useSyncExternalStore`). */
  getState(): SessionState;
  /** Calls `listener` after every change. @returns stops listening */
  subscribe(listener: () => void): () => void;
  /**
   * Starts the SPEC §4 check of the stored user unless it has run or runs (the first caller starts
   * it); resolves when it is done (or cancelled). Never rejects: a check that throws signs out with
   * 'Session expired' and deletes the stored user.
   */
  check(): Promise<void>;
  /**
   * Checks the session with the server again (an offline start's user, once the server answers);
   * the session stays as it is meanwhile, and only the server's 401 then signs out. Never rejects.
   */
  recheck(): Promise<void>;
  /**
   * Stops a check under way, its outcome ignored (the session stays as it was); the next `check`
   * starts a new one. For the app leaving the screen (an unmount), so a check never ends in
   * another's lifetime, as TanStack Query cancelled the session query.
   */
  cancelCheck(): void;
  /**
   * SPEC §4/§7 sign-in (`login` of ./api.ts): stores the user, forgets the previous user's cached
   * answers, runs `beforeSignIn` (the check of the stored choices), then marks the session signed in
   * (which sends the sign-in screen on to the furthest step, SPEC §2).
   * @throws {Error} whatever `login` or `beforeSignIn` throws; the session stays signed out
   */
  signIn(credentials: { identifier: string; password: string }, options?: { beforeSignIn?: (user: User) => Promise<void> }): Promise<User>;
  /** SPEC §4/§7 logout: the call (its failure ignored, SPEC §8), then signed out whatever it said. Never rejects. */
  signOut(): Promise<void>;
  /**
   * Ends a session the server no longer accepts (SPEC §8 'Session expired'): signed out with that
   * reason, the stored user deleted; the chosen organization, event and day are kept, so the same
   * user's next sign-in returns to the furthest step (SPEC §2). Never rejects.
   */
  expire(): Promise<void>;
  /**
   * Marks `user`, already stored on the device, signed in (a door device after its set-up from an
   * enrollment link, docs/decisions/107), after forgetting the previous user's cached answers. Never rejects.
   */
  signInAs(user: User): Promise<void>;
  /**
   * Makes `user`, already stored, the signed-in user without forgetting cached answers: the same
   * door device under a new shift (docs/decisions/116), whose door lists stay what they were.
   */
  switchShift(user: User): void;
  /**
   * Signs the screen out with `reason` (shown on /login), forgetting the cached answers but keeping
   * the stored user and its token for what must still be sent (app/remove-this-device.ts).
   */
  end(reason: SessionEndReason): void;
}

const LOADING: SessionState = { status: 'loading', user: null };

function stateOf(session: Session): SessionState {
  if (session.user) return { status: 'authenticated', user: session.user, isUnconfirmed: session.isUnconfirmed === true };
  return session.reason === undefined ? { status: 'unauthenticated', user: null } : { status: 'unauthenticated', user: null, reason: session.reason };
}

/**
 * A session store. `initial`: the session known without a check (signed out when no user is stored,
 * so the first render is the prerendered form, docs/decisions/082; a test's signed-in user); without
 * it the session is 'loading' until `check`. `queryClient`: the app's query cache, cleared when the
 * user changes.
 */
export function createSessionStore(options: { queryClient: QueryClientSlot; initial?: Session }): SessionStore {
  const { queryClient } = options;
  let state: SessionState = options.initial ? stateOf(options.initial) : LOADING;
  let checking: Promise<void> | undefined = options.initial ? Promise.resolve() : undefined;
  let isChecked = options.initial !== undefined;
  let running: AbortController | undefined;
  const listeners = new Set<() => void>();

  const publish = (next: SessionState) => {
    state = next;
    for (const listener of listeners) listener();
  };

  /** Forgets every server answer cached for the user who leaves (memory and IndexedDB). Never rejects. */
  const forgetCachedData = async () => {
    queryClient.current?.removeQueries();
    await clearPersistedQueries().catch(() => undefined);
  };

  /** A check still under way would answer for the session before this change: it is dropped. */
  const dropRunningCheck = () => {
    running?.abort();
    running = undefined;
    isChecked = true;
  };

  const signedOut = (reason?: SessionEndReason) => {
    dropRunningCheck();
    publish(reason === undefined ? { status: 'unauthenticated', user: null } : { status: 'unauthenticated', user: null, reason });
    void forgetCachedData();
  };

  const runCheck = async () => {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    try {
      const session = await checkSession(controller.signal);
      if (controller.signal.aborted) return;
      isChecked = true;
      publish(stateOf(session));
    } catch {
      if (controller.signal.aborted) return;
      // checkSession decides about failures itself; anything else it throws ends the session.
      isChecked = true;
      publish({ status: 'unauthenticated', user: null, reason: 'session_expired' });
      await removeStoredUser().catch(() => undefined);
    } finally {
      if (running === controller) running = undefined;
    }
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    check() {
      if (!isChecked && !running) checking = runCheck();
      return checking ?? Promise.resolve();
    },
    recheck() {
      checking = runCheck();
      return checking;
    },
    cancelCheck() {
      running?.abort();
      running = undefined;
    },
    async signIn(credentials, signInOptions = {}) {
      const user = await login(credentials);
      await forgetCachedData();
      await signInOptions.beforeSignIn?.(user);
      dropRunningCheck();
      publish(stateOf({ user }));
      return user;
    },
    async signOut() {
      try {
        await logout();
      } finally {
        signedOut();
      }
    },
    async expire() {
      signedOut('session_expired');
      await removeStoredUser().catch(() => undefined);
    },
    async signInAs(user) {
      await forgetCachedData();
      dropRunningCheck();
      publish(stateOf({ user }));
    },
    switchShift(user) {
      dropRunningCheck();
      publish(stateOf({ user }));
    },
    end(reason) {
      signedOut(reason);
    },
  };
}
