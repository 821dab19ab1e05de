/**
 * The offline copy of the lists the choice screens show (issue 12 item 1, docs/decisions/056):
 * organizations and each organization's events, kept in IndexedDB so that the app started without
 * a server still lists them. See query-persister-store.ts for the store; this module loads it on
 * first use, so neither `idb` nor the persister weigh on the first load of the sign-in screen.
 */
import type { Query, QueryFunctionContext, QueryKey } from '@tanstack/react-query';

type Store = typeof import('./query-persister-store.ts');
let store: Promise<Store> | undefined;

function loadStore(): Promise<Store> {
  store ??= import('./query-persister-store.ts');
  return store;
}

/**
 * The `persister` option of a query kept for offline use. A list answered from IndexedDB (nothing
 * in memory yet) is fetched again right after, since it comes from an earlier start; when that
 * fails (offline), the kept list stays on screen and the query reports the failure as usual (the
 * SPEC §8 toast after the SPEC §9 retries). Kept up to 7 days.
 */
export async function persistedQuery<T, TQueryKey extends QueryKey>(
  queryFn: (context: QueryFunctionContext<TQueryKey>) => T | Promise<T>,
  context: QueryFunctionContext<TQueryKey>,
  query: Query,
): Promise<T> {
  const { listPersister } = await loadStore();
  let isFetched = false;
  const data = await listPersister.persisterFn(
    (fetchContext: QueryFunctionContext<TQueryKey>) => {
      isFetched = true;
      return queryFn(fetchContext);
    },
    context,
    query,
  );
  if (!isFetched) {
    setTimeout(() => {
      // The library's own refetch on restore would leave its failure (offline) unhandled.
      query.fetch().catch(() => undefined);
    }, 0);
  }
  return data;
}

/** Deletes every kept list (sign-in, sign-out, session expired). Never rejects. */
export async function clearPersistedQueries(): Promise<void> {
  const { clearStoredQueries } = await loadStore();
  await clearStoredQueries();
}

