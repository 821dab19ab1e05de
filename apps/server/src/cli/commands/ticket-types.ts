/**
 * `ticket-type list`, `ticket-type set`: the ticket types of an event, their check-in note and
 * attention flag (docs/decisions/102), their days and name (docs/decisions/125), through the same
 * service as the API (services/ticket-types.ts).
 */
import { CHECK_IN_NOTE_MAX_LENGTH, type TicketType } from '@gatecheck/contract';
import type { Command } from 'commander';
import { listTicketTypes, updateTicketType } from '../../services/ticket-types.ts';
import { parseAttention, parseDays } from '../arguments.ts';
import { CliError, type AdminContext } from '../context.ts';
import { cliActor } from '../../services/audit.ts';

/** Adds the `ticket-type` commands to `program`. */
export function registerTicketTypeCommands(program: Command, context: AdminContext): void {
  const types = program.command('ticket-type').description('list ticket types and set their check-in note, attention flag, days and name');

  types
    .command('list')
    .description("list an event's ticket types with their ticket counts, check-in notes and attention flags")
    .requiredOption('--event <id>', 'event id (see: event list)')
    .action(async (options: { event: string }) => {
      const list = await listTicketTypes(await context.db(), options.event);
      if (list.length === 0) {
        context.print('No ticket types yet: they come with the tickets (tickets import) or with ticket-type set.');
        return;
      }
      for (const type of list) context.print(describeType(type));
    });

  types
    .command('set')
    .description('set the check-in note, attention flag, days and/or name of a ticket type (created if the event has none of that name)')
    .argument('<name>', 'the ticket type, as the tickets carry it (e.g. "VIP")')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .option('--note <text>', `what the door shows for every ticket of the type (at most ${CHECK_IN_NOTE_MAX_LENGTH} characters; "" clears it)`)
    .option('--attention <yes|no>', 'yes: the scanner sounds and vibrates differently, so staff look up', parseAttention)
    .option('--days <days>', "admit tickets of the type only on these day numbers, comma-separated (with each ticket's own days)", parseDays)
    .option('--all-days', 'admit tickets of the type on every day (their own days still apply)')
    .option('--rename <new-name>', 'rename the type; its tickets and the check-in lists that name it follow')
    .addHelpText(
      'after',
      '\nExamples:\n  npm run admin -- ticket-type set --event 0b7c...e1 VIP --note "Green wristband" --attention yes\n  npm run admin -- ticket-type set --event 0b7c...e1 "Saturday" --days 1 --rename "Saturday pass"',
    )
    .action(async (name: string, options: { event: string; note?: string; attention?: boolean; days?: number[]; allDays?: boolean; rename?: string }) => {
      if (options.days && options.allDays) throw new CliError('Give either --days or --all-days, not both');
      const days = options.allDays ? null : options.days;
      const type = await updateTicketType(
        await context.db(),
        { eventId: options.event, name, change: { checkInNote: options.note, requiresAttention: options.attention, days }, newName: options.rename },
        cliActor(),
      );
      context.print(describeType(type));
    });
}

/** `VIP (12 tickets): attention; note "Green wristband"; days 1, 2` (or `every day`). */
function describeType(type: TicketType): string {
  const parts = [
    type.requiresAttention ? 'attention' : 'no attention',
    type.checkInNote === '' ? 'no note' : `note ${JSON.stringify(type.checkInNote)}`,
    type.days ? `days ${type.days.join(', ')}` : 'every day',
  ];
  return `${type.name} (${type.tickets} ticket${type.tickets === 1 ? '' : 's'}): ${parts.join('; ')}`;
}
