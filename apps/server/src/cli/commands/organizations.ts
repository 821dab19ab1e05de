/**
 * `org create`, `org list`, `org add-member`, `org set-role`, `org remove-member`: organizations and
 * who belongs to them, with a role (staff, supervisor, admin: docs/decisions/037). Memberships go
 * through services/team.ts, as in the management area: the same last-admin rule, the same audit
 * entries (the CLI as the actor).
 */
import { MembershipRole } from '@gatecheck/contract';
import { Option, type Command } from 'commander';
import { cliActor } from '../../services/audit.ts';
import { createOrganization, findOrganization, listOrganizations } from '../../services/organizations.ts';
import { addMember, changeMemberRole, removeMember } from '../../services/team.ts';
import { findUser } from '../../services/users.ts';
import type { AdminContext } from '../context.ts';
import { formatTable } from '../output.ts';

/** Adds the `org` commands to `program`. */
export function registerOrganizationCommands(program: Command, context: AdminContext): void {
  const org = program.command('org').description('organizations and memberships');

  org
    .command('create')
    .description('create an organization (names are unique, so --org can name it later)')
    .requiredOption('--name <name>', 'organization name')
    .option('--description <text>', 'short description', '')
    .addHelpText('after', '\nExample:\n  npm run admin -- org create --name "Northwind Live" --description "Festivals"')
    .action(async (options: { name: string; description: string }) => {
      const name = options.name.trim();
      const id = await createOrganization(await context.db(), { name, description: options.description.trim() }, cliActor());
      context.print(`Created organization "${name}" (id ${id})`);
    });

  org
    .command('list')
    .description('list organizations with their ids')
    .action(async () => {
      const rows = await listOrganizations(await context.db());
      if (rows.length === 0) return context.print('No organizations yet (create one: org create --name <name>).');
      context.print(
        formatTable([
          ['ID', 'NAME', 'MEMBERS', 'EVENTS'],
          ...rows.map((row) => [row.id, row.name, String(row.members), String(row.events)]),
        ]),
      );
    });

  org
    .command('add-member')
    .description("add a user to an organization with a role, or change a member's role")
    .requiredOption('--org <id|name>', 'organization id or name')
    .requiredOption('--user <email|username>', 'the user')
    .addOption(new Option('--role <role>', 'role in the organization').choices(MembershipRole.options).default('staff'))
    .addHelpText('after', '\nExample:\n  npm run admin -- org add-member --org "Northwind Live" --user sam@example.com --role admin')
    .action(async (options: { org: string; user: string; role: string }) => {
      const role = MembershipRole.parse(options.role);
      const db = await context.db();
      const organization = await findOrganization(db, options.org);
      const user = await findUser(db, options.user);
      const { previousRole } = await addMember(db, { organizationId: organization.id, userId: user.id, role }, cliActor());
      if (previousRole === null) context.print(`Added ${user.username} to "${organization.name}" as ${role}`);
      else if (previousRole === role) context.print(`${user.username} is already ${role} of "${organization.name}"`);
      else context.print(`Changed ${user.username}'s role in "${organization.name}" from ${previousRole} to ${role}`);
    });

  org
    .command('set-role')
    .description("change a member's role (staff: scans; supervisor: also search, undo, scan log; admin: also memberships)")
    .requiredOption('--org <id|name>', 'organization id or name')
    .requiredOption('--user <email|username>', 'the member')
    .addOption(new Option('--role <role>', 'the new role').choices(MembershipRole.options).makeOptionMandatory())
    .addHelpText('after', '\nExample:\n  npm run admin -- org set-role --org "Northwind Live" --user sam --role supervisor')
    .action(async (options: { org: string; user: string; role: string }) => {
      const role = MembershipRole.parse(options.role);
      const db = await context.db();
      const organization = await findOrganization(db, options.org);
      const user = await findUser(db, options.user);
      const { previousRole } = await changeMemberRole(db, { organizationId: organization.id, userId: user.id, role }, cliActor());
      if (previousRole === role) context.print(`${user.username} is already ${role} of "${organization.name}"`);
      else context.print(`Changed ${user.username}'s role in "${organization.name}" from ${previousRole} to ${role}`);
    });

  org
    .command('remove-member')
    .description('remove a member from an organization (their account stays; an organization keeps at least one admin)')
    .requiredOption('--org <id|name>', 'organization id or name')
    .requiredOption('--user <email|username>', 'the member')
    .action(async (options: { org: string; user: string }) => {
      const db = await context.db();
      const organization = await findOrganization(db, options.org);
      const user = await findUser(db, options.user);
      await removeMember(db, { organizationId: organization.id, userId: user.id }, cliActor());
      context.print(`Removed ${user.username} from "${organization.name}"`);
    });
}
