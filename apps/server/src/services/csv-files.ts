/**
 * The one way Gatecheck writes CSV (docs/decisions/086): csv-stringify with `escape_formulas`, so
 * a cell that a spreadsheet would run as a formula — text starting with `=`, `+`, `-`, `@`, a tab or
 * a carriage return (and their full-width forms) — is written with a leading apostrophe (OWASP's
 * advice against CSV injection). Scanned text, holder names and ticket codes reach these files from
 * outside: a QR code reading `=HYPERLINK(...)` must stay text in the organizer's spreadsheet.
 * Numbers are written as they are (a negative number stays a number).
 */
import { type Stringifier, stringify } from 'csv-stringify';
import { stringify as stringifyNow } from 'csv-stringify/sync';

/** A CSV row: one value per column. */
export type CsvRow = readonly (string | number | null | undefined)[];

const SAFE_OPTIONS = { header: true, escape_formulas: true } as const;

/** A streaming CSV writer with a header row of `columns`: `write(row)` each row, then `end()`. */
export function csvWriter(columns: readonly string[]): Stringifier {
  return stringify({ ...SAFE_OPTIONS, columns: [...columns] });
}

/** `rows` under a header row of `columns`, as one CSV text. */
export function csvText(columns: readonly string[], rows: readonly CsvRow[]): string {
  return stringifyNow(
    rows.map((row) => [...row]),
    { ...SAFE_OPTIONS, columns: [...columns] },
  );
}
