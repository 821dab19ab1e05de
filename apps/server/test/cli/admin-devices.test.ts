/**
 * Door devices in the admin CLI (docs/decisions/107, 108): `device enroll` prints a link and writes a
 * QR code a phone can read (decoded here with jsQR), redeemed once; `device list|rename|move|revoke`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseEnrollmentLink } from '@gatecheck/contract';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { redeemEnrollment } from '../../src/services/devices.ts';
import { createCliFixture, idIn, type CliFixture } from './cli-harness.ts';

let cli: CliFixture;
let eventId: string;
let secondEventId: string;

beforeAll(async () => {
  cli = await createCliFixture();
  await cli.ok('org', 'create', '--name', 'Northwind Live');
  eventId = idIn(await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Harbour Lights', '--date', '2026-12-01', '--status', 'live'));
  secondEventId = idIn(await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Winter Gala', '--date', '2026-12-20', '--status', 'live'));
});
afterAll(async () => {
  await cli.close();
});

test('device enroll writes a QR code holding the one-time link; the link enrolls one phone, once', async () => {
  const output = await cli.ok('device', 'enroll', '--event', eventId, '--name', 'North gate 2', '--qr', 'north.png');
  expect(output).toMatch(/Enrollment for "North gate 2", valid once until /);
  const image = PNG.sync.read(await readFile(path.join(cli.dir, 'north.png')));
  const text = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? '';
  expect(output).toContain(text);
  const link = parseEnrollmentLink(text);
  expect(link).not.toBeNull();
  const redeemed = await redeemEnrollment(cli.database.db, { token: link?.token ?? '', now: new Date() });
  expect(redeemed.device).toMatchObject({ name: 'North gate 2', eventId });
  await expect(redeemEnrollment(cli.database.db, { token: link?.token ?? '', now: new Date() })).rejects.toThrow(/already used/);

  const deviceId = redeemed.device.id;
  expect(await cli.ok('device', 'list', '--org', 'Northwind Live')).toMatch(new RegExp(`${deviceId}\\s+North gate 2\\s+Harbour Lights`));
  expect(await cli.ok('device', 'rename', '--device', deviceId, '--name', 'South gate')).toMatch(/Renamed device .* to "South gate"/);
  expect(await cli.ok('device', 'move', '--device', deviceId, '--event', secondEventId)).toMatch(/"South gate" now scans "Winter Gala"/);
  expect(await cli.ok('device', 'revoke', '--device', deviceId)).toMatch(/Revoked device "South gate" at 20/);
  const [listed] = JSON.parse(await cli.ok('device', 'list', '--org', 'Northwind Live', '--json')) as Array<{ revokedAt: string | null; eventId: string }>;
  expect(listed).toMatchObject({ eventId: secondEventId, revokedAt: expect.any(String) });
});

test('device commands refuse a bad name, an unknown device or a QR file of another kind, in one line', async () => {
  const badName = await cli.run('device', 'enroll', '--event', eventId, '--name', 'Gate\u0007');
  expect(badName.exitCode).toBe(1);
  expect(badName.stderr).toMatch(/^error: --name: must not contain control characters\n$/);
  const unknown = await cli.run('device', 'revoke', '--device', '00000000-0000-4000-8000-000000000000');
  expect(unknown.exitCode).toBe(1);
  expect(unknown.stderr).toMatch(/^error: No device with id/);
  const wrongFile = await cli.run('device', 'enroll', '--event', eventId, '--qr', 'north.gif');
  expect(wrongFile.exitCode).toBe(1);
  expect(wrongFile.stderr).toMatch(/--qr: give a file ending in \.svg or \.png/);
  expect(wrongFile.stdout).toBe('');
});
