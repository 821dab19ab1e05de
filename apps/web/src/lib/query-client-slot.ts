/**
 * Where the app's TanStack Query client comes from (SPEC §9 policy, lib/query-client.ts) without
 * bringing TanStack Query onto the sign-in screen's first load (issue 24 item 3, docs/decisions/098).
 * The sign-in screen, the route guard and the session need no query cache; the screens after sign-in
 * and the account screens do. Those screens load the client with their code (app/query-layer.tsx);
 * the sign-in starts loading it as soon as a sign-in is sent, and the app start once the browser is idle,
 * so no screen after sign-in waits for it.
 *
 * This module imports TanStack Query's types only. The screens reach the slot through
 * `useQueryClientSlot` (the app's providers hold it, app/providers.tsx).
 */
import type { QueryClient } from '@tanstack/react-query';
import { createContext, use } from 'react';

/** The app's one query client, loaded on demand. */
export interface QueryClientSlot {
  /** The client once loaded; undefined before. */
  readonly current: QueryClient | undefined;
  /**
   * Loads the client (once; every call returns the same promise) and resolves to it.
   * @throws {Error} when its code cannot be loaded (a failed chunk load); a later call tries again
   */
  load(): Promise<QueryClient>;
}

/**
 * A slot whose client `create` makes on the first `load()`. The app's:
 * `lazyQueryClient(() => import('./query-client.ts').then((module) => module.createQueryClient()))`.
 */
export function lazyQueryClient(create: () => Promise<QueryClient>): QueryClientSlot {
  let current: QueryClient | undefined;
  let loading: Promise<QueryClient> | undefined;
  return {
    get current() {
      return current;
    },
    load() {
      loading ??= create().then(
        (client) => {
          current = client;
          return client;
        },
        (error: unknown) => {
          // A failed chunk load (a venue network dropping it): the next screen tries again.
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}

/** A slot that holds `client` already (tests, and a client made by the caller). */
export function readyQueryClient(client: QueryClient): QueryClientSlot {
  const loaded = Promise.resolve(client);
  return { current: client, load: () => loaded };
}

/** The app's slot: the SPEC §9 client of lib/query-client.ts, made when first loaded. */
export function appQueryClient(): QueryClientSlot {
  return lazyQueryClient(() => import('./query-client.ts').then((module) => module.createQueryClient()));
}

/** The app's slot, for the screens below the providers (app/providers.tsx). */
export const QueryClientSlotContext = createContext<QueryClientSlot | null>(null);

/** The app's query client slot. @throws {Error} outside the app's providers */
export function useQueryClientSlot(): QueryClientSlot {
  const slot = use(QueryClientSlotContext);
  if (!slot) throw new Error('useQueryClientSlot must be used inside the app providers');
  return slot;
}
