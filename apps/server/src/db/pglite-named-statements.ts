/**
 * PGlite with named prepared statements (docs/decisions/071). PGlite's `query` sends every statement
 * as the unnamed one (Parse, Describe, Bind, Describe, Execute, Sync: six calls into its
 * WebAssembly), so PostgreSQL parses and plans it again each time; for the scan read that is about
 * 600 of its 770 µs. `withNamedStatements(client)` answers `query` for the statements Drizzle sends
 * again and again (SELECT, INSERT, UPDATE, DELETE, WITH) with a named statement per SQL text,
 * parsed and described once, then run as one Bind + Describe + Execute + Sync message: PostgreSQL's
 * plan cache applies as it does for the `pg` driver's named statements on a PostgreSQL server.
 *
 * Everything else goes to PGlite unchanged: other statements (DDL, COPY, SET), queries with a blob
 * (`/dev/blob`), `exec`, and transactions (`transaction`'s own `query` is PGlite's). Results,
 * errors, parsers and serializers are PGlite's own (`parse.parseResults`, `client.serializers`,
 * `DatabaseError` from `execProtocol`), and each call holds PGlite's two locks as `query` does, so
 * it never runs inside another caller's transaction.
 */
import { parse, type PGlite, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';

/** How many named statements are kept; the least recently used beyond this is closed. */
export const MAX_NAMED_STATEMENTS = 256;

/** SQL that is worth a named statement: one DML statement (Drizzle sends one per call). */
const REPEATABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** SQLSTATE 0A000 with this message: the table a statement reads changed shape (DDL) since it was prepared. */
const STALE_PLAN = /cached plan must not change result type/;

interface NamedStatement {
  name: string;
  /** The parameters' type OIDs, as PostgreSQL inferred them (Describe of the statement). */
  parameterTypes: number[];
}

/** The internals of PGlite's `query` that this module reuses (public members of the PGlite class). */
type LockingPGlite = PGlite & {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
};

/**
 * `client` whose `query` uses named prepared statements (see the module comment); every other
 * member is the client's own.
 * @returns a proxy of `client`: close `client` itself (or the proxy) as before.
 */
export function withNamedStatements(client: PGlite): PGlite {
  const locking = client as LockingPGlite;
  const statements = new Map<string, NamedStatement>();
  let counter = 0;

  /** Sends `messages` as one protocol message ending in Sync, as `query` does. */
  const send = (...messages: Uint8Array[]) => client.execProtocol(Buffer.concat([...messages, protocol.serialize.sync()]));
  /** Closes (DEALLOCATEs) the named statement `name`. */
  const close = (name: string) => send(protocol.serialize.close({ type: 'S', name }));

  /** Parses and describes `text` as a new named statement, closing the least recently used one when full. */
  const prepare = async (text: string, options: QueryOptions | undefined): Promise<NamedStatement> => {
    if (statements.size >= MAX_NAMED_STATEMENTS) {
      const [oldestText, oldest] = statements.entries().next().value ?? [];
      if (oldestText !== undefined && oldest) {
        statements.delete(oldestText);
        await close(oldest.name);
      }
    }
    const name = `gatecheck_pglite_${++counter}`;
    const { messages } = await send(
      protocol.serialize.parse({ name, text, ...(options?.paramTypes ? { types: options.paramTypes } : {}) }),
      protocol.serialize.describe({ type: 'S', name }),
    );
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    return statement;
  };

  /** Runs `statement` with `params`, serialized as PGlite's `query` does (by the described type). */
  const run = async <T>(statement: NamedStatement, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> => {
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const type = statement.parameterTypes[index] ?? 0;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(param) : String(param);
    });
    const { messages } = await send(
      protocol.serialize.bind({ statement: statement.name, values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
    );
    // PGlite merges `options.parsers` into its own by spreading both, several hundred entries (one
    // per array type) copied on every call; a prototype chain gives the same look-ups for the cost
    // of the few parsers Drizzle passes.
    const parsers = options?.parsers ? Object.assign(Object.create(client.parsers) as typeof client.parsers, options.parsers) : client.parsers;
    const [results] = parse.parseResults(messages, parsers, options?.parsers ? { ...options, parsers: undefined } : options);
    if (!results) throw new Error('PGlite answered a named statement without a result');
    return results as Results<T>;
  };

  const query = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    if (!REPEATABLE.test(text) || options?.blob) return client.query<T>(text, params, options);
    return locking._runExclusiveTransaction(() =>
      client.runExclusive(async () => {
        let statement = statements.get(text);
        if (statement) {
          // Most recently used last: the first entry is the one to close when the cache is full.
          statements.delete(text);
          statements.set(text, statement);
        } else {
          statement = await prepare(text, options);
        }
        try {
          return await run<T>(statement, params, options);
        } catch (error) {
          if (!STALE_PLAN.test(String(error))) throw error;
          statements.delete(text);
          await close(statement.name);
          return run<T>(await prepare(text, options), params, options);
        }
      }),
    );
  };

  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      const value: unknown = Reflect.get(target, property, target);
      // PGlite's methods use private fields: call them on the client, not on the proxy.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
