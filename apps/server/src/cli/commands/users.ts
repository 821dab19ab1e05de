/**
 * `user create`: an account that can sign in to the scanner (argon2id password hash).
 */
import { randomBytes } from 'node:crypto';
import { RegisterRequest } from '@gatecheck/contract';
import type { Command } from 'commander';
import { AccountTakenError, createAccount } from '../../services/users.ts';
import { CliError, type AdminContext } from '../context.ts';

/** Adds the `user` commands to `program`. */
export function registerUserCommands(program: Command, context: AdminContext): void {
  const user = program.command('user').description('user accounts');
  user
    .command('create')
    .description('create a user account; without --password a random one is generated and printed once')
    .requiredOption('--email <email>', 'email address (sign-in name)')
    .requiredOption('--username <username>', 'username (also a sign-in name): letters, digits, . _ -')
    .requiredOption('--name <name>', 'display name shown to colleagues ("checked in by")')
    .option('--password <password>', 'password, at least 8 characters (default: generated)')
    .option('--country <code>', 'ISO 3166 alpha-2 country code, e.g. GB')
    .addHelpText('after', '\nExample:\n  npm run admin -- user create --email sam@example.com --username sam --name "Sam Lee" --country GB')
    .action(async (options: Record<string, unknown>) => {
      const generatedPassword = options.password === undefined ? randomBytes(12).toString('base64url') : undefined;
      const parsed = RegisterRequest.safeParse({
        name: options.name,
        username: options.username,
        email: options.email,
        password: options.password ?? generatedPassword,
        country: options.country,
      });
      if (!parsed.success) {
        const [issue] = parsed.error.issues;
        throw new CliError(`option --${String(issue?.path[0] ?? 'value')}: ${issue?.message ?? 'invalid'}`);
      }
      const country = parsed.data.country.toUpperCase();
      if (country && !/^[A-Z]{2}$/.test(country)) throw new CliError('option --country: expected a two-letter country code such as GB');
      const id = await createAccount(await context.db(), {
        displayName: parsed.data.name,
        username: parsed.data.username,
        email: parsed.data.email,
        password: parsed.data.password,
        country,
      }).catch((error: unknown) => {
        if (!(error instanceof AccountTakenError)) throw error;
        const name = error.takenField === 'email' ? `email ${parsed.data.email}` : `username ${parsed.data.username}`;
        throw new CliError(`A user with ${name} already exists`);
      });
      context.print(`Created user ${parsed.data.username} <${parsed.data.email}> (id ${id})`);
      if (generatedPassword) context.print(`Password (generated, shown once): ${generatedPassword}`);
    });
}
