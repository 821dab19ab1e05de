/**
 * `list create`, `list edit`, `list delete` and `list list`: an event's check-in lists
 * (docs/decisions/100) — its entrances and desks, each admitting some ticket types (all by
 * default) on some days (all by default). A ticket is checked in once per list and day. Each
 * change goes through services/check-in-lists.ts, as in the management area, and is on the
 * event's activity with the CLI as the actor (docs/decisions/115).
 */
import { InvalidArgumentError, type Command } from 'commander';
import {
  type CheckInListChange,
  type CheckInListRow,
  createCheckInList,
  deleteCheckInList,
  editCheckInList,
  listCheckInLists,
} from '../../services/check-in-lists.ts';
import type { Db } from '../../db/client.ts';
import { cliActor } from '../../services/audit.ts';
import { type EventDetails, findEvent } from '../../services/events.ts';
import { parseDays, parsePositiveInteger } from '../arguments.ts';
import { CliError, type AdminContext } from '../context.ts';
import { formatTable } from '../output.ts';

/** `--types "VIP, Press"`: ticket types, comma-separated, as imported (any letter case). */
function parseTypes(value: string): string[] {
  const types = value.split(',').map((type) => type.trim());
  if (types.some((type) => type === '')) throw new InvalidArgumentError('Expected ticket types separated by commas, e.g. "VIP,Press".');
  return types;
}

/** `--capacity 500` or `--capacity none`: most guests inside at once (docs/decisions/111). */
function parseCapacity(value: string): number | 'none' {
  // 'none', not null: commander turns a parser's null into ''.
  if (value.trim().toLowerCase() === 'none') return 'none';
  try {
    return parsePositiveInteger(value);
  } catch {
    throw new InvalidArgumentError('Expected a capacity of at least 1 guest, or "none".');
  }
}

/** `--daily-checkout 04:00` or `--daily-checkout none`: 'HH:MM' in the event's time zone. */
function parseCheckoutTime(value: string): string {
  const trimmed = value.trim();
  if (trimmed.toLowerCase() === 'none') return 'none';
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(trimmed)) throw new InvalidArgumentError('Expected a time HH:MM (00:00 to 23:59, the event\'s time zone), or "none".');
  return trimmed;
}

interface ListOptions {
  event: string;
  name?: string;
  list?: string;
  types?: string[];
  allTypes?: boolean;
  days?: number[];
  allDays?: boolean;
  position?: number;
  reentry?: boolean;
  capacity?: number | 'none';
  dailyCheckout?: string;
}

/** The door options of `list create` and `list edit` (docs/decisions/111). */
function addDoorOptions(command: Command): Command {
  return command
    .option('--reentry', 'record exits: guests may leave and come back (the scanner offers Entry / Exit)')
    .option('--no-reentry', 'one entry per ticket and day, no exits (the default)')
    .option('--capacity <n|none>', 'most guests inside at once through this list (entries are denied when full)', parseCapacity)
    .option('--daily-checkout <HH:MM|none>', "check everyone still inside out at this time each day (event's time zone)", parseCheckoutTime);
}

/** The door fields given in `options`. */
function doorFields(options: ListOptions): Pick<CheckInListChange, 'allowsReentry' | 'capacity' | 'dailyCheckoutTime'> {
  return {
    ...(options.reentry === undefined ? {} : { allowsReentry: options.reentry }),
    ...(options.capacity === undefined ? {} : { capacity: options.capacity === 'none' ? null : options.capacity }),
    ...(options.dailyCheckout === undefined ? {} : { dailyCheckoutTime: options.dailyCheckout === 'none' ? null : options.dailyCheckout }),
  };
}

/** Adds the `list` commands to `program`. */
export function registerCheckInListCommands(program: Command, context: AdminContext): void {
  const list = program.command('list').description("an event's check-in lists: entrances and desks, the ticket types and days each admits");

  addDoorOptions(list
    .command('create')
    .description('add a check-in list to an event (every ticket type and every day unless --types / --days)')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .requiredOption('--name <name>', "the list's name, shown to staff ('VIP Gate')")
    .option('--types <types>', 'ticket types it admits, comma-separated (as imported)', parseTypes)
    .option('--days <days>', 'day numbers it admits, comma-separated', parseDays)
    .option('--position <n>', 'its place among the lists (1 = first, where a scanner without a list checks in)', parsePositiveInteger))
    .addHelpText('after', '\nExamples:\n  npm run admin -- list create --event <event-id> --name "VIP Gate" --types VIP\n  npm run admin -- list create --event <event-id> --name "Merch desk" --days 2,3')
    .action(async (options: ListOptions) => {
      const db = await context.db();
      const event = await findEvent(db, options.event);
      const created = await createCheckInList(db, event, {
        name: options.name ?? '',
        ticketTypes: options.types ?? null,
        days: options.days ?? null,
        ...(options.position === undefined ? {} : { position: options.position }),
        ...doorFields(options),
      }, cliActor());
      context.print(`Created check-in list "${created.name}" of "${event.title}": ${describeList(created)} (id ${created.id})`);
    });

  addDoorOptions(list
    .command('edit')
    .description('change a check-in list: name, ticket types, days, position (check-ins made stay on it)')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .requiredOption('--list <id|name>', 'the list (see: list list)')
    .option('--name <name>', 'new name')
    .option('--types <types>', 'admit only these ticket types, comma-separated', parseTypes)
    .option('--all-types', 'admit every ticket type')
    .option('--days <days>', 'admit only these day numbers, comma-separated', parseDays)
    .option('--all-days', 'admit every day of the event')
    .option('--position <n>', 'its place among the lists (1 = first)', parsePositiveInteger))
    .action(async (options: ListOptions) => {
      if (options.types && options.allTypes) throw new CliError('Give either --types or --all-types, not both');
      if (options.days && options.allDays) throw new CliError('Give either --days or --all-days, not both');
      const db = await context.db();
      const event = await findEvent(db, options.event);
      const current = await findListByIdOrName(db, event, options.list ?? '');
      const change: CheckInListChange = {
        name: options.name,
        ticketTypes: options.allTypes ? null : options.types,
        days: options.allDays ? null : options.days,
        position: options.position,
        ...doorFields(options),
      };
      const updated = await editCheckInList(db, event, current.id, change, cliActor());
      context.print(`Updated check-in list "${updated.name}" of "${event.title}": ${describeList(updated)}`);
    });

  list
    .command('delete')
    .description('delete a check-in list that has no check-ins (an event keeps at least one list)')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .requiredOption('--list <id|name>', 'the list (see: list list)')
    .action(async (options: ListOptions) => {
      const db = await context.db();
      const event = await findEvent(db, options.event);
      const current = await findListByIdOrName(db, event, options.list ?? '');
      const deleted = await deleteCheckInList(db, event, current.id, cliActor());
      context.print(`Deleted check-in list "${deleted.name}" of "${event.title}"`);
    });

  list
    .command('list')
    .description("an event's check-in lists in order, with their ids")
    .requiredOption('--event <id>', 'event id (see: event list)')
    .option('--json', 'print JSON instead of a table')
    .action(async (options: { event: string; json?: boolean }) => {
      const db = await context.db();
      const event = await findEvent(db, options.event);
      const lists = await listCheckInLists(db, event.id);
      if (options.json) return context.print(JSON.stringify({ eventId: event.id, lists }, null, 2));
      context.print(`${event.title} (${event.organizationName})`);
      context.print(
        formatTable([
          ['#', 'ID', 'NAME', 'TICKET TYPES', 'DAYS', 'RE-ENTRY', 'CAPACITY', 'CHECKOUT'],
          ...lists.map((entry, index) => [
            String(index + 1),
            entry.id,
            entry.name,
            entry.ticketTypes?.join(', ') ?? 'all',
            entry.days?.join(', ') ?? 'all',
            entry.allowsReentry ? 'yes' : 'no',
            entry.capacity ? String(entry.capacity) : '-',
            entry.dailyCheckoutTime ?? '-',
          ]),
        ]),
      );
    });
}

/**
 * The list of `event` with id `idOrName`, or named so (any letter case).
 * @throws CliError when the event has none.
 */
async function findListByIdOrName(db: Db, event: EventDetails, idOrName: string): Promise<CheckInListRow> {
  const lists = await listCheckInLists(db, event.id);
  const wanted = idOrName.trim().toLowerCase();
  const found = lists.find((entry) => entry.id.toLowerCase() === wanted) ?? lists.find((entry) => entry.name.toLowerCase() === wanted);
  if (!found) throw new CliError(`"${event.title}" has no check-in list "${idOrName}" (lists: ${lists.map((entry) => entry.name).join(', ')})`);
  return found;
}

/** 'ticket types VIP, Press; days 1, 2' or 'every ticket type; every day'. */
function describeList(list: CheckInListRow): string {
  const types = list.ticketTypes ? `ticket types ${list.ticketTypes.join(', ')}` : 'every ticket type';
  const days = list.days ? `days ${list.days.join(', ')}` : 'every day';
  const doors = [
    list.allowsReentry ? 're-entry' : '',
    list.capacity ? `capacity ${list.capacity}` : '',
    list.dailyCheckoutTime ? `daily checkout ${list.dailyCheckoutTime}` : '',
  ].filter((part) => part !== '');
  return [`${types}; ${days}`, ...doors].join('; ');
}
