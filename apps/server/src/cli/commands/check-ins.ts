/**
 * `checkins count`: how many tickets have been checked in on an event day, out of those admitted.
 */
import type { Command } from 'commander';
import { countCheckInsByDay } from '../../services/check-in-counts.ts';
import { parsePositiveInteger } from '../arguments.ts';
import type { AdminContext } from '../context.ts';
import { formatTable } from '../output.ts';

/** Adds the `checkins` commands to `program`. */
export function registerCheckInCommands(program: Command, context: AdminContext): void {
  const checkins = program.command('checkins').description('check-ins at the gate');
  checkins
    .command('count')
    .description('check-ins of an event day (every day without --day): checked in / tickets admitted that day')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .option('--day <n>', 'day number', parsePositiveInteger)
    .option('--json', 'print JSON instead of a table')
    .addHelpText('after', '\nExample:\n  npm run admin -- checkins count --event 0b7c...e1 --day 2')
    .action(async (options: { event: string; day?: number; json?: boolean }) => {
      const { event, days } = await countCheckInsByDay(await context.db(), options.event, options.day);
      if (options.json) return context.print(JSON.stringify({ eventId: event.id, eventTitle: event.title, days }, null, 2));
      context.print(`${event.title} (${event.organizationName})`);
      context.print(
        formatTable([
          ['DAY', 'NAME', 'DATE', 'CHECKED IN', 'ADMITTED', '%'],
          ...days.map((day) => [
            String(day.day),
            day.name,
            day.date,
            String(day.checkedIn),
            String(day.admitted),
            day.admitted === 0 ? '-' : `${((100 * day.checkedIn) / day.admitted).toFixed(1)}%`,
          ]),
        ]),
      );
    });
}
