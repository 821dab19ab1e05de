/**
 * The admin CLI (issue 4): `npm run admin -- <command>`. It uses the server's configuration
 * (DATA_DIR, DATABASE_URL: config.ts) and database opener, so it works on the embedded database
 * and on PostgreSQL alike. runAdmin runs one command in-process and answers its exit code; every
 * failure is one line on stderr (`error: ...`) and exit code 1, never a stack trace.
 */
import { Command, CommanderError } from 'commander';
import { registerCheckInListCommands } from './commands/check-in-lists.ts';
import { registerCheckInCommands } from './commands/check-ins.ts';
import { registerDatabaseCommands } from './commands/database.ts';
import { registerDeviceCommands } from './commands/devices.ts';
import { registerEventCommands } from './commands/events.ts';
import { registerOrganizationCommands } from './commands/organizations.ts';
import { registerScanLogCommands } from './commands/scan-log.ts';
import { registerTicketCommands } from './commands/tickets.ts';
import { registerTicketTypeCommands } from './commands/ticket-types.ts';
import { registerUserCommands } from './commands/users.ts';
import { createContext, type AdminContext, type AdminIo } from './context.ts';

const OVERVIEW_EXAMPLES = [
  'Examples (a new event from scratch):',
  '  npm run admin -- user create --email sam@example.com --username sam --name "Sam Lee"',
  '  npm run admin -- org create --name "Northwind Live"',
  '  npm run admin -- org add-member --org "Northwind Live" --user sam --role staff',
  '  npm run admin -- event create --org "Northwind Live" --title "Harbour Lights" --date 2026-12-01 \\',
  '    --status live --days "Opening Night:2026-12-01,Main Day:2026-12-02"',
  '  npm run admin -- event list',
  '  npm run admin -- tickets import --event <event id> tickets.csv',
  '  npm run admin -- ticket-type set --event <event id> VIP --note "Green wristband" --attention yes',
  '  npm run admin -- tickets export-qr --event <event id> --out ./qr --pdf tickets.pdf',
  '  npm run admin -- list create --event <event id> --name "VIP Gate" --types VIP',
  '  npm run admin -- checkins count --event <event id> --day 1',
  '  npm run admin -- org set-role --org "Northwind Live" --user sam --role supervisor',
  '  npm run admin -- scanlog export --event <event id> --day 1 --out scans.csv',
  '  npm run admin -- device enroll --event <event id> --name "North gate 2" --qr north-gate-2.png',
  '',
  'Configuration: the same environment as the server. DATABASE_URL selects PostgreSQL; otherwise the',
  'embedded database in $DATA_DIR/pgdata (default ./data) is used. Stop the server before using the',
  'CLI on the embedded database: it can be opened by one process at a time.',
  'Run `npm run admin -- <command> <subcommand> --help` for the options of a command.',
].join('\n');

/** Builds the command tree; the actions use `context`. */
function buildProgram(context: AdminContext): Command {
  const program = new Command('admin')
    .description('Gatecheck administration: users, organizations, events, tickets, check-ins and the scan log.')
    .usage('<command> <subcommand> [options]')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.io.stdout.write(text),
      writeErr: (text) => context.io.stderr.write(text),
    })
    .showSuggestionAfterError(true);
  registerUserCommands(program, context);
  registerOrganizationCommands(program, context);
  registerEventCommands(program, context);
  registerTicketCommands(program, context);
  registerTicketTypeCommands(program, context);
  registerCheckInListCommands(program, context);
  registerCheckInCommands(program, context);
  registerScanLogCommands(program, context);
  registerDeviceCommands(program, context);
  registerDatabaseCommands(program, context);
  program.addHelpText('after', `\nAll commands:\n${listLeafCommands(program).join('\n')}\n\n${OVERVIEW_EXAMPLES}`);
  return program;
}

/** `  user create [options]   create a user account ...` for every runnable command. */
function listLeafCommands(program: Command): string[] {
  const leaves: Array<[string, string]> = [];
  const walk = (command: Command, prefix: string) => {
    for (const sub of command.commands) {
      const name = `${prefix}${sub.name()}`;
      if (sub.commands.length > 0) walk(sub, `${name} `);
      else leaves.push([`${name} ${sub.usage()}`, sub.description()]);
    }
  };
  walk(program, '');
  const width = Math.max(...leaves.map(([usage]) => usage.length));
  return leaves.map(([usage, description]) => `  ${usage.padEnd(width)}  ${description}`);
}

/**
 * Runs the admin CLI with `argv` (the arguments after `admin`, e.g. `['event', 'list']`).
 * @returns the exit code: 0 on success (and for --help), 1 on any error.
 */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  const context = createContext(io);
  const program = buildProgram(context);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already printed its own errors (unknown option, missing argument) and help.
    if (error instanceof CommanderError) return error.exitCode;
    io.stderr.write(`error: ${describeError(error)}\n`);
    return 1;
  } finally {
    await context.close().catch((error: unknown) => io.stderr.write(`error: closing the database: ${describeError(error)}\n`));
  }
}

/**
 * One line saying what went wrong. Database driver errors are wrapped (Drizzle's "Failed query:
 * ..." carries the SQL): the innermost cause says it best, and an AggregateError (a refused
 * connection to every address) says it in its parts.
 */
function describeError(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
  const message = current instanceof Error ? current.message || ('code' in current ? String(current.code) : current.name) : String(current);
  return message.split('\n')[0] ?? 'unknown error';
}
