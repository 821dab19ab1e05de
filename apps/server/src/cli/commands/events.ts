/**
 * `event create` and `event list`: events with their days and status. `event list` shows the ids the
 * ticket and check-in commands take.
 */
import { EventStatus } from '@gatecheck/contract';
import { Option, type Command } from 'commander';
import { createEvent, listEvents, type EventDayInput } from '../../services/admin/events.ts';
import { findOrganization } from '../../services/admin/organizations.ts';
import { collectDay, parseDate, parseDayList } from '../arguments.ts';
import { CliError, type AdminContext } from '../context.ts';
import { formatTable } from '../output.ts';

interface CreateOptions {
  org: string;
  title: string;
  date: string;
  location: string;
  description: string;
  status: string;
  day?: EventDayInput[];
  days?: EventDayInput[];
}

/** Adds the `event` commands to `program`. */
export function registerEventCommands(program: Command, context: AdminContext): void {
  const event = program.command('event').description('events and their days');

  event
    .command('create')
    .description('create an event; without --day/--days it has one day (day 1 on --date)')
    .requiredOption('--org <id|name>', 'organization id or name')
    .requiredOption('--title <title>', 'event title')
    .requiredOption('--date <YYYY-MM-DD>', 'event date (the first day)', parseDate)
    .option('--location <text>', 'where it takes place', '')
    .option('--description <text>', 'short description', '')
    .addOption(new Option('--status <status>', 'status; scanners see events that are not draft, completed or cancelled').choices(EventStatus.options).default('draft'))
    .option('--day <name:YYYY-MM-DD>', 'add an event day, numbered in order (repeatable)', collectDay)
    .option('--days <list>', 'all event days at once: "Name:YYYY-MM-DD,Name:YYYY-MM-DD"', parseDayList)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  npm run admin -- event create --org "Northwind Live" --title "Harbour Lights" --date 2026-12-01 --status live \\',
        '    --days "Opening Night:2026-12-01,Main Day:2026-12-02,Closing Day:2026-12-03"',
        '  npm run admin -- event create --org "Northwind Live" --title "Tech Summit" --date 2026-12-10 --day "Talks:2026-12-10" --day "Workshops:2026-12-11"',
      ].join('\n'),
    )
    .action(async (options: CreateOptions) => {
      if (options.day && options.days) throw new CliError('Give the days either with --day (repeated) or with --days, not both');
      const days = options.days ?? options.day ?? [];
      const title = options.title.trim();
      if (!title) throw new CliError('option --title: must not be empty');
      const db = await context.db();
      const organization = await findOrganization(db, options.org);
      const id = await createEvent(db, {
        organizationId: organization.id,
        title,
        date: options.date,
        location: options.location.trim(),
        description: options.description.trim(),
        status: EventStatus.parse(options.status),
        days,
      });
      const dayText = days.length === 0 ? `one day (${options.date})` : `${days.length} days (${days.map((day, index) => `${index + 1}. ${day.name} ${day.date}`).join(', ')})`;
      context.print(`Created event "${title}" of "${organization.name}", ${options.status}, ${dayText} (id ${id})`);
    });

  event
    .command('list')
    .description('list events with their ids, by date')
    .option('--org <id|name>', 'only the events of this organization')
    .option('--json', 'print JSON instead of a table')
    .action(async (options: { org?: string; json?: boolean }) => {
      const db = await context.db();
      const organization = options.org ? await findOrganization(db, options.org) : undefined;
      const rows = await listEvents(db, { organizationId: organization?.id });
      if (options.json) return context.print(JSON.stringify(rows, null, 2));
      if (rows.length === 0) return context.print('No events yet (create one: event create --org <org> --title <title> --date <YYYY-MM-DD>).');
      context.print(
        formatTable([
          ['ID', 'DATE', 'STATUS', 'DAYS', 'TICKETS', 'ORGANIZATION', 'TITLE'],
          ...rows.map((row) => [row.id, row.date, row.status, String(Math.max(row.days, 1)), String(row.tickets), row.organizationName, row.title]),
        ]),
      );
    });
}
