/**
 * Statements of the hot path coalesced under load (docs/decisions/070): while the database is busy
 * with a statement of one kind, further calls of that kind wait and then go to it together, as one
 * multi-row statement (`unnest` of arrays), instead of one statement each. A lone call goes out at
 * once, so at a quiet door nothing waits; at a busy one a commit and its WAL sync serve many scans.
 *
 * Built on DataLoader (graphql/dataloader) with its cache off: DataLoader collects the calls into
 * batches and hands each batch to the statement; `coalesce` only decides when a batch may go (when
 * one of `slots` is free) and keeps a failing batch from failing its neighbours: a batch that throws
 * is run again one key at a time, so each caller gets its own result or its own error.
 */
import DataLoader from 'dataloader';
import { type SQL, sql } from 'drizzle-orm';
import { batchSlotsOf, type DbOrTx } from './client.ts';
import { perDatabase } from './prepared.ts';

/** How a coalesced statement batches. */
export interface CoalesceOptions {
  /**
   * Batches of this statement in flight at once (at least 1): 1 for PGlite (one statement at a
   * time), a part of the pool on PostgreSQL. A call made while a slot is free goes out at once.
   */
  slots: number;
  /** Most keys in one batch (default 64); more wait for the next batch. */
  maxBatch?: number;
}

/**
 * Wraps `run`, which answers a batch of keys with one result per key in the same order (one
 * statement for all of them), into a function of one key.
 * @returns `(key) => Promise<result>`: the key's result, or the error of its own run when its
 *   batch failed and it failed alone too.
 * @throws (from `run`, per key) whatever the statement throws; a `run` answering a different number
 *   of results than keys is an error of every key of that batch.
 */
export function coalesce<K, V>(run: (keys: readonly K[]) => Promise<readonly V[]>, options: CoalesceOptions): (key: K) => Promise<V> {
  const slots = new Slots(Math.max(1, Math.floor(options.slots)));
  const loader = new DataLoader<K, V, K>(
    async (keys) => {
      try {
        return await runIsolated(run, keys);
      } finally {
        slots.release();
      }
    },
    { cache: false, maxBatchSize: options.maxBatch ?? 64, batchScheduleFn: (dispatch) => slots.take(dispatch) },
  );
  return (key) => loader.load(key);
}

/** `run(keys)`; when it fails for a batch of several, each key alone, its error kept as its result. */
async function runIsolated<K, V>(run: (keys: readonly K[]) => Promise<readonly V[]>, keys: readonly K[]): Promise<(V | Error)[]> {
  try {
    return checkedLength(await run(keys), keys.length);
  } catch (error) {
    if (keys.length === 1) throw error;
    return Promise.all(
      keys.map(async (key) => {
        try {
          const [result] = checkedLength(await run([key]), 1);
          return result as V;
        } catch (alone) {
          return alone instanceof Error ? alone : new Error(String(alone));
        }
      }),
    );
  }
}

function checkedLength<V>(results: readonly V[], expected: number): V[] {
  if (results.length !== expected) throw new Error(`a coalesced statement answered ${results.length} results for ${expected} keys`);
  return [...results];
}

/**
 * A counting semaphore for batches: `take(dispatch)` runs `dispatch` at the end of this turn of the
 * event loop (`setImmediate`) when a slot is free, else when one is released; every dispatched batch releases its slot once, when it settles.
 */
class Slots {
  private free: number;
  /** Batches waiting for a slot, oldest first (a handful at most: each holds up to `maxBatch` calls). */
  private readonly waiting: (() => void)[] = [];

  constructor(count: number) {
    this.free = count;
  }

  take(dispatch: () => void): void {
    if (this.free > 0) {
      this.free -= 1;
      // After the I/O callbacks of this turn of the event loop, not now: the requests that arrived
      // together join one batch. This matters most on PGlite, whose statements run on this thread
      // and finish without yielding, so a batch never forms behind one in flight.
      setImmediate(dispatch);
    } else {
      this.waiting.push(dispatch);
    }
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}

/** How many keys a statement is prepared for: one (plain parameters) or several (arrays). */
export type BatchSize = 'one' | 'many';

/**
 * A column of the keys of a coalesced statement: its name in `r` (also its placeholder's), its SQL
 * type, and the field of a key that holds its value.
 */
export type KeyColumn<K> = readonly [name: string, type: string, field: keyof K & string];

/**
 * The keys of a coalesced statement as a table `r(<columns>, position)` (position 1-based, in key
 * order): for `one` a single row of parameters, which the planner folds into the statement as if
 * they were written in it (a lone scan costs what it cost before batching); for `many` `unnest` of
 * one array parameter per column `WITH ORDINALITY`. Each column's placeholder is its name.
 */
export function keysTable<K>(columns: readonly KeyColumn<K>[], size: BatchSize): SQL {
  const names = sql.raw(columns.map(([name]) => name).join(', '));
  if (size === 'one') {
    const values = columns.map(([name, type]) => sql`${sql.placeholder(name)}::${sql.raw(type)} as ${sql.raw(name)}`);
    return sql`(select ${sql.join(values, sql`, `)}, 1::bigint as position) as r`;
  }
  const arrays = columns.map(([name, type]) => sql`${sql.placeholder(name)}::${sql.raw(type)}[]`);
  return sql`unnest(${sql.join(arrays, sql`, `)}) with ordinality as r(${names}, position)`;
}

/** A prepared statement as Drizzle gives it: run with named placeholder values. */
interface PreparedStatement<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>;
}

/** A statement over the keys of a batch: `(keys, values?) => rows` (see `statementForKeys`). */
export type KeyedStatement<K, Row> = (keys: readonly K[], values?: Record<string, unknown>) => Promise<Row[]>;

/**
 * A coalesced statement of the hot path, per database (or transaction) object: `prepare(db, size)`
 * builds its one-key and batch forms over `keysTable(columns, size)`, built once per object
 * (`perDatabase`); calls are coalesced (`coalesce`) with the object's slots (`batchSlotsOf`), and
 * `answer(keys, run)` runs the statement for a batch (`run(keys, values?)`) and turns its rows into
 * one result per key, in key order.
 * @returns `(db) => (key) => Promise<result>`.
 * @throws (per key) what `answer` throws, as `coalesce` does.
 */
export function coalescedStatement<D extends DbOrTx, K, Row, V>(
  columns: readonly KeyColumn<K>[],
  prepare: (db: D, size: BatchSize) => PreparedStatement<Row>,
  answer: (keys: readonly K[], run: KeyedStatement<K, Row>) => Promise<readonly V[]>,
): (db: D) => (key: K) => Promise<V> {
  return perDatabase((db: D) => {
    const run = statementForKeys(columns, (size) => prepare(db, size));
    return coalesce((keys: readonly K[]) => answer(keys, run), { slots: batchSlotsOf(db) });
  });
}

/**
 * A statement over `keysTable(columns, size)`, prepared in both sizes by `prepare`, as one function
 * of a batch of keys: one key runs the `one` form with each column's value, more the `many` form
 * with an array per column; `values` are the placeholders shared by the whole batch (e.g. `now`).
 * @returns `(keys, values?) => rows` (each row carrying its key's `position` where the statement
 *   selects it: see `byPosition`).
 */
function statementForKeys<K, Row>(
  columns: readonly KeyColumn<K>[],
  prepare: (size: BatchSize) => PreparedStatement<Row>,
): KeyedStatement<K, Row> {
  const statements = { one: prepare('one'), many: prepare('many') };
  return (keys, values = {}) => {
    const isOne = keys.length === 1;
    const params: Record<string, unknown> = { ...values };
    for (const [name, , field] of columns) params[name] = isOne ? (keys[0]?.[field] ?? null) : keys.map((key) => key[field] ?? null);
    return statements[isOne ? 'one' : 'many'].execute(params);
  };
}

/**
 * `rows` in key order: `count` entries, the row whose 1-based `position` is that key's (the first
 * one, if several), or undefined for a key without a row.
 */
export function byPosition<Row extends { position: number }>(rows: readonly Row[], count: number): (Row | undefined)[] {
  const found: (Row | undefined)[] = Array.from({ length: count }, () => undefined);
  for (const row of rows) found[row.position - 1] ??= row;
  return found;
}
