/**
 * `ticket-type list`, `ticket-type set`: the ticket types of an event and their check-in note and
 * attention flag (docs/decisions/102), through the same service as the API (services/ticket-types.ts).
 */
import { CHECK_IN_NOTE_MAX_LENGTH, type TicketType } from '@gatecheck/contract';
import type { Command } from 'commander';
import { listTicketTypes, updateTicketType } from '../../services/ticket-types.ts';
import { parseAttention } from '../arguments.ts';
import type { AdminContext } from '../context.ts';
import { cliActor } from '../../services/audit.ts';

/** Adds the `ticket-type` commands to `program`. */
export function registerTicketTypeCommands(program: Command, context: AdminContext): void {
  const types = program.command('ticket-type').description("list ticket types and set their check-in note and attention flag");

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
    .description('set the check-in note and/or attention flag of a ticket type (created if the event has none of that name)')
    .argument('<name>', 'the ticket type, as the tickets carry it (e.g. "VIP")')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .option('--note <text>', `what the door shows for every ticket of the type (at most ${CHECK_IN_NOTE_MAX_LENGTH} characters; "" clears it)`)
    .option('--attention <yes|no>', 'yes: the scanner sounds and vibrates differently, so staff look up', parseAttention)
    .addHelpText('after', '\nExample:\n  npm run admin -- ticket-type set --event 0b7c...e1 VIP --note "Green wristband" --attention yes')
    .action(async (name: string, options: { event: string; note?: string; attention?: boolean }) => {
      const type = await updateTicketType(await context.db(), {
        eventId: options.event,
        name,
        change: { checkInNote: options.note, requiresAttention: options.attention },
      }, cliActor());
      context.print(describeType(type));
    });
}

/** `VIP (12 tickets): attention; note "Green wristband"`. */
function describeType(type: TicketType): string {
  const parts = [type.requiresAttention ? 'attention' : 'no attention', type.checkInNote === '' ? 'no note' : `note ${JSON.stringify(type.checkInNote)}`];
  return `${type.name} (${type.tickets} ticket${type.tickets === 1 ? '' : 's'}): ${parts.join('; ')}`;
}
