/**
 * `device enroll|list|rename|move|revoke`: door devices (docs/decisions/107, 108) for the operator,
 * with the same services as the admins' API. `device enroll` prints the one-time link (PUBLIC_URL
 * decides its server address), a QR code on the terminal, and writes it as SVG or PNG with `--qr`.
 */
import { writeFile } from 'node:fs/promises';
import { CreateEnrollmentRequest, UpdateDeviceRequest } from '@gatecheck/contract';
import type { Command } from 'commander';
import QRCode from 'qrcode';
import { createEnrollment, deviceForAdmin, listDevices, revokeDevice, updateDevice } from '../../services/devices.ts';
import { cliActor } from '../../services/audit.ts';
import { findOrganization } from '../../services/organizations.ts';
import { CliError, type AdminContext } from '../context.ts';
import { formatTable } from '../output.ts';

/** A device name as the API takes it (trimmed, 1–60 characters, no control characters). */
function parseDeviceName(value: string): string {
  const parsed = CreateEnrollmentRequest.safeParse({ name: value });
  if (!parsed.success || parsed.data.name === undefined) throw new CliError(`--name: ${parsed.error?.issues[0]?.message ?? 'invalid'}`);
  return parsed.data.name;
}

/** Adds the `device` commands to `program`. */
export function registerDeviceCommands(program: Command, context: AdminContext): void {
  const device = program.command('device').description('door devices: enrollment QR codes, the devices list, rename, move, revoke');
  device
    .command('enroll')
    .description('make a one-time enrollment (24 h) for an event: prints the link and its QR code')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .option('--name <name>', "the device's name, e.g. 'North gate 2'")
    .option('--list <id>', 'the one check-in list it scans (see: list list); default every list')
    .option('--qr <file>', 'also write the QR code to this file (.svg or .png)')
    .addHelpText('after', '\nExample:\n  npm run admin -- device enroll --event 0b7c...e1 --name "North gate 2" --qr north-gate-2.png')
    .action(async (options: { event: string; name?: string; list?: string; qr?: string }) => {
      const name = options.name === undefined ? undefined : parseDeviceName(options.name);
      // Checked before anything is made: a refused command leaves no enrollment behind.
      const qrFile = options.qr === undefined ? undefined : context.resolvePath(options.qr);
      const qrKind = qrFile === undefined ? undefined : /\.(svg|png)$/i.exec(qrFile)?.[1]?.toLowerCase();
      if (qrFile !== undefined && qrKind === undefined) throw new CliError('--qr: give a file ending in .svg or .png');
      const enrollment = await createEnrollment(
        await context.db(),
        {
          eventId: options.event,
          name,
          checkInListId: options.list,
          createdBy: null,
          publicUrl: context.config().publicUrl,
          now: new Date(),
        },
        cliActor(),
      );
      const where = enrollment.checkInListName === null ? '' : ` at "${enrollment.checkInListName}"`;
      context.print(`Enrollment for "${enrollment.deviceName}"${where}, valid once until ${enrollment.expiresAt}:`);
      context.print(enrollment.link);
      context.print(await QRCode.toString(enrollment.link, { type: 'terminal', small: true }));
      if (qrFile !== undefined) {
        if (qrKind === 'png') await QRCode.toFile(qrFile, enrollment.link, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 512 });
        else await writeFile(qrFile, enrollment.qrCodeSvg);
        context.print(`Wrote the QR code to ${qrFile}`);
      }
    });
  device
    .command('list')
    .description("an organization's devices: name, event, app, last seen, scans waiting, revoked")
    .requiredOption('--org <id or name>', 'organization (see: org list)')
    .option('--json', 'print JSON instead of a table')
    .action(async (options: { org: string; json?: boolean }) => {
      const db = await context.db();
      const organization = await findOrganization(db, options.org);
      const devices = await listDevices(db, organization.id);
      if (options.json) return context.print(JSON.stringify(devices, null, 2));
      context.print(
        formatTable([
          ['ID', 'NAME', 'EVENT', 'LIST', 'APP', 'LAST SEEN', 'WAITING', 'REVOKED'],
          ...devices.map((entry) => [
            entry.id,
            entry.name,
            entry.eventTitle,
            entry.checkInListName ?? '-',
            [entry.platform, entry.appVersion].filter(Boolean).join(' ') || '-',
            entry.lastSeenAt ?? '-',
            entry.scansWaiting === null ? '-' : String(entry.scansWaiting),
            entry.revokedAt ?? '-',
          ]),
        ]),
      );
    });
  device
    .command('rename')
    .description('rename a device')
    .requiredOption('--device <id>', 'device id (see: device list)')
    .requiredOption('--name <name>', 'the new name')
    .action(async (options: { device: string; name: string }) => {
      const db = await context.db();
      const updated = await updateDevice(db, await deviceForAdmin(db, null, options.device), UpdateDeviceRequest.parse({ name: parseDeviceName(options.name) }), cliActor());
      context.print(`Renamed device ${updated.id} to "${updated.name}"`);
    });
  device
    .command('move')
    .description('move a device to another event of its organization (it scans that event from its next request)')
    .requiredOption('--device <id>', 'device id (see: device list)')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .option('--list <id>', 'the one check-in list of that event it scans; default every list')
    .action(async (options: { device: string; event: string; list?: string }) => {
      const db = await context.db();
      const updated = await updateDevice(db, await deviceForAdmin(db, null, options.device), { eventId: options.event, checkInListId: options.list }, cliActor());
      context.print(`Device "${updated.name}" now scans "${updated.eventTitle}"`);
    });
  device
    .command('revoke')
    .description("revoke a device: its next request is refused; scans it made before now can still be uploaded for 7 days")
    .requiredOption('--device <id>', 'device id (see: device list)')
    .action(async (options: { device: string }) => {
      const db = await context.db();
      const revoked = await revokeDevice(db, await deviceForAdmin(db, null, options.device), { revokedBy: null, now: new Date() }, cliActor());
      context.print(`Revoked device "${revoked.name}" at ${revoked.revokedAt ?? ''}`);
    });
}
