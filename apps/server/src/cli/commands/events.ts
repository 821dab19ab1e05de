/**
 * `event create`, `event set`, `event archive`, `event restore` and `event list`: events with their
 * days, status and calendar (time zone, day cut-off, rehearsal setting); `event set` moves a day
 * that has check-ins only with --confirm (docs/decisions/145). `event list` shows the ids
 * the ticket and check-in commands take. Thin callers of services/events.ts, the same functions the
 * management API calls (SEAMS §6): the rules and the validation (the contract's `EventRequest`) are
 * there, and every change is on the audit trail as the CLI's (docs/decisions/106).
 */
import { DEFAULT_DAY_CUTOFF, DEFAULT_EVENT_TIME_ZONE, EventStatus } from '@gatecheck/contract';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { cliActor } from '../../services/audit.ts';
import type { Db } from '../../db/client.ts';
import { ServiceError } from '../../services/errors.ts';
import { archiveEvent, createEvent, findManagedEvent, listEvents, restoreEvent, updateEvent, type EventDayInfo } from '../../services/events.ts';
import { findOrganization } from '../../services/organizations.ts';
import { collectDay, collectDayDate, parseDate, parseDayCutoff, parseDayList, parseTimeZone, parseYesNo } from '../arguments.ts';
import { CliError, type AdminContext } from '../context.ts';
import { formatTable } from '../output.ts';

interface CreateOptions {
  org: string;
  title: string;
  date: string;
  location: string;
  description: string;
  status: string;
  day?: Array<Omit<EventDayInfo, 'day'>>;
  days?: Array<Omit<EventDayInfo, 'day'>>;
  timeZone: string;
  dayCutoff: string;
  scanOutsideDays: boolean;
  capacity?: number | 'none';
}

interface SetOptions {
  event: string;
  date?: string;
  dayDate?: Array<{ day: number; date: string }>;
  confirm?: boolean;
  status?: string;
  timeZone?: string;
  dayCutoff?: string;
  scanOutsideDays?: boolean;
  capacity?: number | 'none';
}

const CAPACITY_HELP = "the venue's capacity: most guests inside at once through all its check-in lists (entries are denied when full), or none";

/**
 * `--capacity 2000` or `--capacity none` (docs/decisions/147). Any whole number passes here: the
 * events service refuses one below 1 with the management API's words (the contract's `EventCapacity`).
 */
function parseEventCapacity(value: string): number | 'none' {
  // 'none', not null: commander turns a parser's null into ''.
  if (value.trim().toLowerCase() === 'none') return 'none';
  if (!/^\s*-?\d+\s*$/.test(value)) throw new InvalidArgumentError('Expected a whole number of guests, or "none".');
  return Number(value);
}

/** The capacity option as the events service takes it: absent unchanged, 'none' null. */
function capacityOf(option: number | 'none' | undefined): number | null | undefined {
  return option === 'none' ? null : option;
}

const TIME_ZONE_HELP = "the venue's IANA time zone; event days are dates on its clock";
const DAY_CUTOFF_HELP = 'an event day still admits until this time the next morning (HH:MM, event time zone)';
const SCAN_OUTSIDE_DAYS_HELP = 'rehearsals: admit outside the event days as if on the chosen day';

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
    .option('--time-zone <IANA zone>', TIME_ZONE_HELP, parseTimeZone, DEFAULT_EVENT_TIME_ZONE)
    .option('--capacity <n|none>', CAPACITY_HELP, parseEventCapacity)
    .option('--day-cutoff <HH:MM>', DAY_CUTOFF_HELP, parseDayCutoff, DEFAULT_DAY_CUTOFF)
    .option('--scan-outside-days <yes|no>', SCAN_OUTSIDE_DAYS_HELP, parseYesNo, false)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  npm run admin -- event create --org "Northwind Live" --title "Harbour Lights" --date 2026-12-01 --status live --time-zone Europe/London \\',
        '    --days "Opening Night:2026-12-01,Main Day:2026-12-02,Closing Day:2026-12-03"',
        '  npm run admin -- event create --org "Northwind Live" --title "Tech Summit" --date 2026-12-10 --day "Talks:2026-12-10" --day "Workshops:2026-12-11"',
      ].join('\n'),
    )
    .action(async (options: CreateOptions) => {
      if (options.day && options.days) throw new CliError('Give the days either with --day (repeated) or with --days, not both');
      const days = (options.days ?? options.day ?? []).map((day, index) => ({ day: index + 1, ...day }));
      const title = options.title.trim();
      const db = await context.db();
      const organization = await findOrganization(db, options.org);
      const id = await createEvent(
        db,
        {
          organizationId: organization.id,
          title,
          date: options.date,
          location: options.location,
          description: options.description,
          status: EventStatus.parse(options.status),
          days,
          timeZone: options.timeZone,
          dayCutoff: options.dayCutoff,
          allowsScanningOutsideDays: options.scanOutsideDays,
          capacity: capacityOf(options.capacity),
        },
        cliActor(),
      );
      const dayText = days.length === 0 ? `one day (${options.date})` : `${days.length} days (${days.map((day) => `${day.day}. ${day.name} ${day.date}`).join(', ')})`;
      context.print(`Created event "${title}" of "${organization.name}", ${options.status}, ${dayText} (id ${id})`);
      context.print(calendarText(options.timeZone, options.dayCutoff, options.scanOutsideDays));
      if (typeof options.capacity === 'number') context.print(capacityText(options.capacity));
    });

  event
    .command('set')
    .description("change an event's status, dates or calendar: time zone, day cut-off, scanning outside its days")
    .requiredOption('--event <id>', 'event id (see event list)')
    .option('--date <YYYY-MM-DD>', "the event's date (a one-day event's day 1)", parseDate)
    .option('--day-date <number:YYYY-MM-DD>', 'move a configured event day to another date (repeatable)', collectDayDate)
    .option('--confirm', 'move days that have check-ins: they stay on the day, doors admit on its new date')
    .addOption(new Option('--status <status>', 'new status').choices(EventStatus.options))
    .option('--time-zone <IANA zone>', TIME_ZONE_HELP, parseTimeZone)
    .option('--day-cutoff <HH:MM>', DAY_CUTOFF_HELP, parseDayCutoff)
    .option('--scan-outside-days <yes|no>', SCAN_OUTSIDE_DAYS_HELP, parseYesNo)
    .option('--capacity <n|none>', CAPACITY_HELP, parseEventCapacity)
    .addHelpText('after', ['', 'Example:', '  npm run admin -- event set --event <event-id> --time-zone America/New_York --day-cutoff 04:00 --scan-outside-days yes'].join('\n'))
    .action(async (options: SetOptions) => {
      const db = await context.db();
      const change = {
        date: options.date,
        days: options.dayDate === undefined ? undefined : await daysMoved(db, options.event, options.dayDate),
        status: options.status === undefined ? undefined : EventStatus.parse(options.status),
        timeZone: options.timeZone,
        dayCutoff: options.dayCutoff,
        allowsScanningOutsideDays: options.scanOutsideDays,
        capacity: capacityOf(options.capacity),
      };
      if (Object.values(change).every((value) => value === undefined)) {
        throw new CliError('Nothing to change: give --date, --day-date, --status, --time-zone, --day-cutoff, --scan-outside-days or --capacity');
      }
      const updated = await updateEvent(db, options.event, { ...change, confirm: options.confirm === true }, cliActor()).catch((error: unknown) => {
        // The service's refusal says what moves; the operator confirms with the flag (docs/decisions/145).
        if (error instanceof ServiceError && error.code === 'confirmation_required') throw new CliError(`${error.message} (run it again with --confirm)`);
        throw error;
      });
      context.print(`Updated event "${updated.title}", ${updated.status}`);
      context.print(calendarText(updated.timeZone, updated.dayCutoff, updated.allowsScanningOutsideDays));
      context.print(capacityText(updated.capacity ?? null));
    });

  event
    .command('archive')
    .description('archive an event that admits no one (draft, completed, cancelled): scanners no longer see it; its data stays')
    .requiredOption('--event <id>', 'event id (see event list)')
    .action(async (options: { event: string }) => {
      const db = await context.db();
      await archiveEvent(db, options.event, cliActor());
      context.print(`Archived event ${options.event}: it is no longer offered for scanning (event restore brings it back).`);
    });

  event
    .command('restore')
    .description('bring an archived event back, with the status it had')
    .requiredOption('--event <id>', 'event id (see event list)')
    .action(async (options: { event: string }) => {
      const db = await context.db();
      await restoreEvent(db, options.event, cliActor());
      context.print(`Restored event ${options.event}.`);
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
          ['ID', 'DATE', 'STATUS', 'DAYS', 'TICKETS', 'TIME ZONE', 'ORGANIZATION', 'TITLE'],
          ...rows.map((row) => [row.id, row.date, row.isArchived ? `${row.status} (archived)` : row.status, String(Math.max(row.days, 1)), String(row.tickets), row.timeZone, row.organizationName, row.title]),
        ]),
      );
    });
}

/**
 * The event's configured days with the dates of `moves` changed (every day, as `updateEvent` takes
 * the whole set). @throws CliError for a day number the event has not configured.
 */
async function daysMoved(db: Db, eventId: string, moves: Array<{ day: number; date: string }>): Promise<EventDayInfo[]> {
  const { days } = await findManagedEvent(db, eventId);
  for (const move of moves) {
    if (!days.some((day) => day.day === move.day)) {
      throw new CliError(`The event has no configured day ${move.day}${days.length === 0 ? ' (a one-day event: change its --date)' : ''}`);
    }
  }
  return days.map(({ day, name, date }) => ({ day, name, date: moves.findLast((move) => move.day === day)?.date ?? date }));
}

/** 'Days are dates in Europe/London; each admits until 06:00 the next morning; only on its days.' */
function calendarText(timeZone: string, dayCutoff: string, allowsScanningOutsideDays: boolean): string {
  const outside = allowsScanningOutsideDays ? 'scanning is also allowed outside them (rehearsal)' : 'tickets are denied outside them';
  return `Days are dates in ${timeZone}; each admits until ${dayCutoff} the next morning; ${outside}.`;
}

/** 'Capacity: 2000 guests inside at once, through all its check-in lists.' or 'No capacity.' */
function capacityText(capacity: number | null): string {
  return capacity === null ? 'No capacity for the venue (lists may still have their own).' : `Capacity: ${capacity} guests inside at once, through all its check-in lists.`;
}
