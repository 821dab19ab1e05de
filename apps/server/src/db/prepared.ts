/**
 * Statements built once per database handle (docs/decisions/057): Drizzle's `.prepare(name)` gives a
 * named prepared statement on PostgreSQL (parsed and planned once per connection) and a reusable
 * query on PGlite; building it again for every request would throw that away.
 */

/**
 * Wraps `prepare` so that each database (or transaction) object gets its statement built on first
 * use and reused afterwards; entries go with the object (a WeakMap).
 * @returns `(db) => statement`, e.g. `scanRead(db).execute({ … })`.
 */
export function perDatabase<D extends object, T>(prepare: (db: D) => T): (db: D) => T {
  const statements = new WeakMap<D, T>();
  return (db) => {
    let statement = statements.get(db);
    if (statement === undefined) {
      statement = prepare(db);
      statements.set(db, statement);
    }
    return statement;
  };
}
