/**
 * `scanlog export`: an event's scan log (every verify, manual check-in and undo; issue 11) as CSV,
 * oldest first, to a file or to stdout; formulas escaped (services/csv-files.ts, docs/decisions/086).
 */
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { ScanLogVerdict } from '@gatecheck/contract';
import { Option, type Command } from 'commander';
import { csvWriter } from '../../services/csv-files.ts';
import { findEvent } from '../../services/events.ts';
import { allScanLogEntries, SCAN_LOG_CSV_COLUMNS, scanLogCsvRow } from '../../services/scan-log.ts';
import { parsePositiveInteger } from '../arguments.ts';
import type { AdminContext } from '../context.ts';

/** Adds the `scanlog` commands to `program`. */
export function registerScanLogCommands(program: Command, context: AdminContext): void {
  const scanlog = program.command('scanlog').description('the scan log: every verify, manual check-in and undo');
  scanlog
    .command('export')
    .description('export an event\'s scan log as CSV (oldest first), optionally one day or one verdict')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .option('--day <n>', 'only this day', parsePositiveInteger)
    .addOption(new Option('--verdict <verdict>', 'only this verdict').choices(ScanLogVerdict.options))
    .option('--out <file.csv>', 'write to this file instead of stdout')
    .addHelpText('after', `\nColumns: ${SCAN_LOG_CSV_COLUMNS.join(',')}\nExample:\n  npm run admin -- scanlog export --event 0b7c...e1 --day 2 --out day2.csv`)
    .action(async (options: { event: string; day?: number; verdict?: string; out?: string }) => {
      const db = await context.db();
      const event = await findEvent(db, options.event);
      const verdict = options.verdict === undefined ? undefined : ScanLogVerdict.parse(options.verdict);
      const csv = csvWriter(SCAN_LOG_CSV_COLUMNS);
      const file = options.out ? context.resolvePath(options.out) : undefined;
      const sink = file ? createWriteStream(file) : undefined;
      if (sink) csv.pipe(sink);
      else csv.on('data', (chunk: Buffer | string) => context.io.stdout.write(String(chunk)));
      let rows = 0;
      for await (const entry of allScanLogEntries(db, event.id, { day: options.day, verdict })) {
        csv.write(scanLogCsvRow(entry));
        rows += 1;
      }
      csv.end();
      await finished(sink ?? csv);
      if (file) context.print(`Wrote ${rows} scan log entries of "${event.title}" to ${file}`);
    });
}
