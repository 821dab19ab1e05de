/**
 * Signed QR codes from the management area (docs/decisions/135): an admin downloads one ticket's
 * QR code or every ticket's PDF signed (`?signed=true`), through the same service as the admin
 * CLI's `tickets export-qr --signed`. The images are decoded for real (jsQR; the PDF's images
 * taken out of the file as they are embedded) and the decoded text is scanned at the door.
 * PGlite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { ApiErrorBody, apiPaths, manageTicketPaths, parseSignedTicket, VerifyTicketResponse } from '@gatecheck/contract';
import type { InjectOptions } from 'fastify';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { tickets } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_USER } from '../src/db/seed.ts';
import { createEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { runCli } from './cli/cli-harness.ts';
import { demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
/** An event of the demo organization with only the tickets the tests add (decoding each PDF image costs time). */
let eventId: string;
let adminToken: string;
let staffToken: string;

beforeAll(async () => {
  t = await createTestApp();
  const { organizationId } = await demoIds(t.database.db);
  eventId = await createEvent(
    t.database.db,
    {
      organizationId,
      title: 'Signed print run',
      description: '',
      date: '2026-12-04',
      location: '',
      status: 'live',
      timeZone: 'Europe/Berlin',
      dayCutoff: '04:00',
      allowsScanningOutsideDays: true,
      days: [],
    },
    { kind: 'user', userId: await userIdOf(t.database.db, DEMO_USER.username), name: DEMO_USER.displayName },
  );
  adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  staffToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
});
afterAll(async () => {
  await t.close();
});

async function asAdmin(app: TestApp['app'], options: InjectOptions) {
  return app.inject({ ...options, headers: { ...bearer(adminToken), ...options.headers } });
}

/** The text of the QR code in a PNG image. */
function qrTextOfPng(png: Buffer): string {
  const image = PNG.sync.read(png);
  const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  if (!decoded) throw new Error('no QR code in the image');
  return decoded.data;
}

/**
 * The texts of the QR codes drawn in a tickets PDF, in the file's order: each QR code is an RGB
 * image XObject (PDFKit embeds the PNG's pixels deflated), decoded here with jsQR.
 */
function qrTextsOfPdf(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const texts: string[] = [];
  for (const match of text.matchAll(/<<\n\/Type \/XObject\n\/Subtype \/Image\n([^>]*)>>\nstream\n/g)) {
    const dictionary = match[1] ?? '';
    if (!dictionary.includes('/ColorSpace /DeviceRGB')) continue;
    const number = (name: string) => Number(new RegExp(`/${name} (\\d+)`).exec(dictionary)?.[1]);
    const [width, height, length] = [number('Width'), number('Height'), number('Length')];
    const start = (match.index ?? 0) + match[0].length;
    const rgb = inflateSync(pdf.subarray(start, start + length));
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let pixel = 0; pixel < width * height; pixel++) {
      rgba.set(rgb.subarray(pixel * 3, pixel * 3 + 3), pixel * 4);
      rgba[pixel * 4 + 3] = 255;
    }
    const decoded = jsQR(rgba, width, height);
    if (!decoded) throw new Error('an image of the PDF is no QR code');
    texts.push(decoded.data);
  }
  return texts;
}

async function verifyAtDoor(qrCode: string) {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(staffToken), payload: { eventId, qrCode, day: 1, scanId: randomUUID() } });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

test("a ticket's signed QR code downloaded from /manage decodes to a signed text the door admits; the CLI's signed export prints the very same text", async () => {
  const code = `SIGNED-MANAGE-${randomUUID().toUpperCase()}`;
  const [ticket] = await insertTickets(t.database.db, [{ code, eventId, holderName: 'Sigrid Signed', ticketType: 'General Admission' }]);
  if (!ticket) throw new Error('no ticket');

  const plain = await asAdmin(t.app, { method: 'GET', url: api(manageTicketPaths.ticketQr(eventId, ticket.id)) });
  expect(plain.statusCode, plain.body).toBe(200);
  expect(qrTextOfPng(plain.rawPayload)).toBe(code);

  const signed = await asAdmin(t.app, { method: 'GET', url: api(manageTicketPaths.ticketQr(eventId, ticket.id, { signed: true })) });
  expect(signed.statusCode, signed.body).toBe(200);
  expect(signed.headers['content-type']).toBe('image/png');
  const text = qrTextOfPng(signed.rawPayload);
  expect(text.startsWith('GC1.')).toBe(true);
  expect(parseSignedTicket(text)).toMatchObject({ eventId, code, days: null });

  // The CLI, on the same database and DATA_DIR (the same signing secret), prints the same text.
  const dir = t.config.dataDir;
  const cli = await runCli(['tickets', 'export-qr', '--event', eventId, '--out', 'qr-signed', '--signed'], {
    env: { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') },
    database: t.database,
  });
  expect(cli.exitCode, cli.stderr).toBe(0);
  expect(qrTextOfPng(await readFile(path.join(dir, 'qr-signed', `${code}.png`)))).toBe(text);

  // The door admits the signed text as the ticket, once.
  expect(await verifyAtDoor(text)).toMatchObject({ isValid: true, holderName: 'Sigrid Signed' });
  expect(await verifyAtDoor(code)).toMatchObject({ isValid: false, reason: 'already_checked_in' });
});

test("every ticket's signed QR PDF from /manage holds one signed text per ticket, each decoding to a ticket of the event; the plain PDF holds the codes", async () => {
  const holders = ['Pia Printed', 'Quinn Printed'];
  const ticketCodes = async () => (await t.database.db.select({ code: tickets.code }).from(tickets).where(eq(tickets.eventId, eventId))).map((row) => row.code);
  const inserted = await insertTickets(
    t.database.db,
    holders.map((holderName) => ({ code: `SIGNED-PDF-${randomUUID().toUpperCase()}`, eventId, holderName, ticketType: 'General Admission' })),
  );
  // Every ticket of the event not revoked (the first test's ticket too), each once.
  const printable = await ticketCodes();
  for (const ticket of inserted) expect(printable).toContain(ticket.code);
  const signed = await asAdmin(t.app, { method: 'GET', url: api(manageTicketPaths.ticketsPdf(eventId, { signed: true })) });
  expect(signed.statusCode).toBe(200);
  expect(signed.headers['content-type']).toBe('application/pdf');
  const texts = qrTextsOfPdf(signed.rawPayload);
  const printedCodes = texts.map((text) => parseSignedTicket(text)?.code);
  expect(printedCodes.every((printed) => printed !== undefined)).toBe(true);
  expect(printedCodes.toSorted()).toEqual(printable.toSorted());

  const plain = await asAdmin(t.app, { method: 'GET', url: api(manageTicketPaths.ticketsPdf(eventId)) });
  const plainTexts = qrTextsOfPdf(plain.rawPayload);
  expect(plainTexts).toEqual(printedCodes);

  const pia = texts[printedCodes.indexOf(inserted[0]?.code)];
  if (!pia) throw new Error('not printed');
  expect(await verifyAtDoor(pia)).toMatchObject({ isValid: true, holderName: 'Pia Printed' });
});

test('without a signing secret (PostgreSQL and no SIGNING_KEY_SECRET) a signed download is a 409 on `signed` that says why; plain codes still download', async () => {
  const bare = await createTestApp({ env: { DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused' } });
  try {
    const bareEventId = (await demoIds(bare.database.db)).liveEventId;
    const token = await login(bare.app, DEMO_USER.username, DEMO_USER.password);
    const [ticket] = await insertTickets(bare.database.db, [{ code: `NO-SECRET-${randomUUID().toUpperCase()}`, eventId: bareEventId, holderName: 'Nora', ticketType: 'General Admission' }]);
    if (!ticket) throw new Error('no ticket');
    for (const url of [manageTicketPaths.ticketQr(bareEventId, ticket.id, { signed: true }), manageTicketPaths.ticketsPdf(bareEventId, { signed: true })]) {
      const refused = await bare.app.inject({ method: 'GET', url: api(url), headers: bearer(token) });
      expect(refused.statusCode, refused.body).toBe(409);
      const body = ApiErrorBody.parse(refused.json());
      expect(body).toMatchObject({ code: 'conflict', field: 'signed' });
      expect(body.message).toContain('SIGNING_KEY_SECRET');
    }
    const plain = await bare.app.inject({ method: 'GET', url: api(manageTicketPaths.ticketQr(bareEventId, ticket.id)), headers: bearer(token) });
    expect(plain.statusCode).toBe(200);
    expect(qrTextOfPng(plain.rawPayload)).toBe(ticket.code);
  } finally {
    await bare.close();
  }
});
