/**
 * `db vacuum`: reclaims the space of deleted and updated rows and refreshes the planner
 * statistics (db/vacuum.ts); for the embedded database, which has no autovacuum.
 */
import type { Command } from 'commander';
import { vacuumDatabase } from '../../db/vacuum.ts';
import type { AdminContext } from '../context.ts';

const megabytes = new Intl.NumberFormat('en', { style: 'unit', unit: 'megabyte', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const seconds = new Intl.NumberFormat('en', { style: 'unit', unit: 'second', maximumFractionDigits: 1 });

/** Adds the `db` commands to `program`. */
export function registerDatabaseCommands(program: Command, context: AdminContext): void {
  const database = program.command('db').description('upkeep of the database');
  database
    .command('vacuum')
    .description('reclaim the space of deleted and updated rows and refresh the planner statistics (VACUUM ANALYZE)')
    .option('--full', 'rewrite the tables so the space goes back to the disk (VACUUM FULL: each table is locked while it is rewritten, and needs free disk space for its copy)')
    .addHelpText(
      'after',
      [
        '',
        'The embedded database has no autovacuum: run this now and then while the server is stopped',
        '(it holds the data folder). --full writes a new copy of each table before dropping the old one,',
        'so it needs free disk space the size of the largest table. On PostgreSQL autovacuum does this',
        'already, tables the role does not own are skipped with a warning, and --full blocks scans of',
        'each table while it is rewritten: run it when no gate is scanning.',
        '',
        'Example:',
        '  npm run admin -- db vacuum --full',
      ].join('\n'),
    )
    .action(async (options: { full?: boolean }) => {
      const report = await vacuumDatabase(await context.db(), { isFull: options.full === true });
      const mode = report.isFull ? 'Rewrote and analyzed the tables (VACUUM FULL)' : 'Vacuumed and analyzed the tables';
      context.print(`${mode} in ${seconds.format(report.milliseconds / 1000)}.`);
      context.print(`Database size: ${megabytes.format(report.bytesBefore / 1e6)} before, ${megabytes.format(report.bytesAfter / 1e6)} after.`);
    });
}
