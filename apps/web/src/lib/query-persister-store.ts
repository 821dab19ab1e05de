/**
 * The IndexedDB side of the offline copy of lists, loaded on first use by lib/query-persister.ts
 * (off the first load). Issue 12 item 1, docs/decisions/056: the user's organizations and each organization's events (with their days), kept in IndexedDB through
 * `idb`, so that /organization-select, /event-select and /day-select show their lists when the app
 * starts without a server. TanStack Query's per-query persister
 * (`experimental_createQueryPersister`, @tanstack/react-query-persist-client): a query that opts in
 * with `persister: persistedQuery` is written after every successful fetch and, when the app has no
 * copy in memory, answered from IndexedDB first and then fetched again in the background.
 *
 * - Only queries that opt in are kept; the session, ticket checks and counts never are. The service
 *   worker caches no API answer at all.
 * - Entries older than `PERSISTED_QUERY_MAX_AGE_MS` (7 days) are discarded when read.
 * - `clearStoredQueries()` (through `clearPersistedQueries()`) empties the store at sign-in and sign-out (features/auth), so one
 *   user never sees another's lists (decision 016).
 * - IndexedDB is not one of SPEC §3's local storage keys (those stay in localStorage / Preferences).
 * - Storage never throws: an IndexedDB that cannot be opened (blocked, private mode, jsdom) reads as
 *   empty and writes nothing, so a list then loads from the network as before.
 */
import { experimental_createQueryPersister, type AsyncStorage, type PersistedQuery } from '@tanstack/react-query-persist-client';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

const DB_NAME = 'gatecheck-query-cache';
const STORE = 'queries';

/** How long a kept list may be shown offline, in ms: 7 days (an event week without network). */
export const PERSISTED_QUERY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

interface QueryCacheDb extends DBSchema {
  queries: { key: string; value: PersistedQuery };
}

let database: Promise<IDBPDatabase<QueryCacheDb>> | undefined;

/** The database, opened once; a failed open is forgotten so the next use tries again. */
function openDatabase(): Promise<IDBPDatabase<QueryCacheDb>> {
  database ??= openDB<QueryCacheDb>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore(STORE);
    },
  }).catch((error: unknown) => {
    database = undefined;
    throw error;
  });
  return database;
}

/** Runs `action` on the database; `fallback` when IndexedDB is unavailable or the action fails. */
async function withDatabase<T>(action: (db: IDBPDatabase<QueryCacheDb>) => Promise<T>, fallback: T): Promise<T> {
  try {
    return await action(await openDatabase());
  } catch {
    return fallback;
  }
}

/** The persister's storage: structured-cloned objects in one object store, never throwing. */
const storage: AsyncStorage<PersistedQuery> = {
  getItem: (key) => withDatabase((db) => db.get(STORE, key), undefined),
  setItem: (key, value) => withDatabase((db) => db.put(STORE, value, key), undefined),
  removeItem: (key) => withDatabase(async (db) => db.delete(STORE, key), undefined),
  entries: () =>
    withDatabase(async (db) => {
      const [keys, values] = await Promise.all([db.getAllKeys(STORE), db.getAll(STORE)]);
      return keys.map((key, index) => [key, values[index]] as [string, PersistedQuery]);
    }, []),
};

/** The per-query persister of the kept lists (used through `persistedQuery` in query-persister.ts). */
export const listPersister = experimental_createQueryPersister<PersistedQuery>({
  storage,
  maxAge: PERSISTED_QUERY_MAX_AGE_MS,
  prefix: 'gatecheck',
  // IndexedDB stores objects: no JSON round trip.
  serialize: (query) => query,
  deserialize: (query) => query,
  // Refetched by persistedQuery instead: the library's own refetch leaves its failure (offline) unhandled.
  refetchOnRestore: false,
});

/** Deletes every kept list. Never rejects. */
export function clearStoredQueries(): Promise<void> {
  return withDatabase((db) => db.clear(STORE), undefined);
}
