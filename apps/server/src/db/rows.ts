/** Reading the answer of a raw `db.execute(sql`…`)`, the same on both drivers. */

/**
 * The rows of a `db.execute` answer: PGlite and `pg` both answer `{ rows }`, which the type Drizzle
 * shares between them leaves unknown. `Row` is what the SQL selects; nothing is checked.
 */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
