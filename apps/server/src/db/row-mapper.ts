/**
 * Drizzle's row mapping, worked out once per prepared statement instead of once per row and column
 * (docs/performance.md "The server's JavaScript per approval"). Drizzle maps each row of a select
 * (`mapResultRow` in drizzle-orm's utils) by asking, for every column of every row, what kind of
 * field it is (`is(field, Column)`, `is(field, SQL)` …), which decoder it has and which table it
 * belongs to, walking its path with an iterator: for the scan read's 50-odd columns that was the
 * largest piece of JavaScript an approval ran. `withRowMapper` answers those questions once, when
 * the statement is prepared, and gives Drizzle the result as its `customResultMapper` (which Drizzle
 * hands the rows in its array mode, as it does for its own mapping). The objects are the same:
 * the same keys in the same order, the same decoded values, and a left-joined table's object null
 * exactly when Drizzle makes it null (its first column null, the table nullable in the join).
 */
import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';

/** A selected field as Drizzle orders them (`orderSelectedFields`): its path in the row object and the field. */
interface SelectedField {
  path: readonly string[];
  field: unknown;
}

/** What turns a driver's value into the field's (a column, or an SQL expression's decoder). */
interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** The members of a Drizzle prepared query this module reads and sets (drizzle-orm's PgPreparedQuery). */
interface MappablePreparedQuery {
  fields?: readonly SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/** The decoder Drizzle uses for `field` (`mapResultRow`'s choice, in its order). */
function decoderOf(field: unknown): Decoder {
  // `decoder` is internal to Drizzle's SQL (not in its types): the one `mapResultRow` reads.
  const decoderOfSql = (expression: unknown) => (expression as { decoder: Decoder }).decoder;
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql(field._.sql);
  return decoderOfSql((field as SQL.Aliased).sql);
}

/**
 * A function that maps one row (the driver's array of values, in `fields`' order) to the object
 * Drizzle's `mapResultRow(fields, row, joinsNotNullableMap)` makes of it.
 */
export function rowMapper(fields: readonly SelectedField[], joinsNotNullableMap: Record<string, boolean> | undefined): (row: readonly unknown[]) => Record<string, unknown> {
  const columns = fields.map(({ path, field }) => ({ path, parents: path.slice(0, -1), key: path[path.length - 1] ?? '', decoder: decoderOf(field) }));
  // Drizzle nulls the object `path[0]` of a two-part path when the first such column of it is null,
  // its table is nullable in the join, and no later column of that object is of another table.
  const nulled: { objectName: string; firstColumn: number }[] = [];
  if (joinsNotNullableMap) {
    const seen = new Map<string, { firstColumn: number; table: string; isMixed: boolean }>();
    fields.forEach(({ path, field }, index) => {
      if (!is(field, Column) || path.length !== 2) return;
      const objectName = path[0] ?? '';
      const table = getTableName(field.table);
      const entry = seen.get(objectName);
      if (!entry) seen.set(objectName, { firstColumn: index, table, isMixed: false });
      else if (entry.table !== table) entry.isMixed = true;
    });
    for (const [objectName, { firstColumn, table, isMixed }] of seen) {
      if (!isMixed && !joinsNotNullableMap[table]) nulled.push({ objectName, firstColumn });
    }
  }
  const values: unknown[] = Array.from({ length: columns.length });
  return (row) => {
    const result: Record<string, unknown> = {};
    for (let index = 0; index < columns.length; index++) {
      const column = columns[index] as (typeof columns)[number];
      let node = result;
      for (const chunk of column.parents) {
        if (!(chunk in node)) node[chunk] = {};
        node = node[chunk] as Record<string, unknown>;
      }
      const raw = row[index];
      const value = raw === null ? null : column.decoder.mapFromDriverValue(raw);
      node[column.key] = value;
      values[index] = value;
    }
    for (const { objectName, firstColumn } of nulled) if (values[firstColumn] === null) result[objectName] = null;
    return result;
  };
}

/**
 * Gives the Drizzle prepared select (or `returning`) `prepared` the row mapping of `rowMapper`,
 * built once now, in place of Drizzle's per-row one; anything else (no selected fields, a mapper of
 * its own) is left as it is.
 * @returns `prepared` itself.
 */
export function withRowMapper<T extends object>(prepared: T): T {
  const query = prepared as MappablePreparedQuery;
  if (!query.fields || query.customResultMapper) return prepared;
  const mapRow = rowMapper(query.fields, query.joinsNotNullableMap);
  query.customResultMapper = (rows) => rows.map(mapRow);
  return prepared;
}
