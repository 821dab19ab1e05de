/**
 * Signed QR codes from the management area (docs/decisions/135): an admin downloads one ticket's
 * QR code or every ticket's PDF signed (`?signed=true`), through the same service as the admin
 * CLI's `tickets export-qr --signed`. The images are decoded for real (jsQR; the PDF's pages
 * rendered by MuPDF first) and the decoded text is scanned at the door.
 * PGlite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import {
  ApiErrorBody,
  apiPaths,
  decideCheckIn,
  DoorList,
  EventSigningKeys,
  manageTicketPaths,
  offlinePaths,
  parseSignedTicket,
  verifySignedTicket,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import type { InjectOptions } from 'fastify';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventSigningKeys, tickets } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createEvent } from '../src/services/events.ts';
import { createTicketType } from '../src/services/ticket-types.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { runCli } from './cli/cli-harness.ts';
import { demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';
import { qrTextsOfTicketsPdf } from './helpers/tickets-pdf-pages.ts';

let t: TestApp;
let organizationId: string;
/** An event of the demo organization with only the tickets the tests add (decoding each PDF image costs time). */
let eventId: string;
let adminToken: string;
let staffToken: string;

beforeAll(async () => {
  t = await createTestApp();
  organizationId = (await demoIds(t.database.db)).organizationId;
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
 * The lines of text drawn in a PDF, in the file's order: each `[<hex> kerning <hex> …] TJ` of the
 * deflated content streams joined into one line (PDFKit's built-in fonts write Windows-1252 bytes).
 */
function textLinesOfPdf(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const lines: string[] = [];
  for (const match of text.matchAll(/\/Length (\d+)\n\/Filter \/FlateDecode\n>>\nstream\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const content = inflateSync(pdf.subarray(start, start + Number(match[1]))).toString('latin1');
    for (const shown of content.matchAll(/\[([^\]]*)\] TJ/g)) {
      lines.push([...(shown[1] ?? '').matchAll(/<([0-9a-f]*)>/g)].map((hex) => Buffer.from(hex[1] ?? '', 'hex').toString('latin1')).join(''));
    }
  }
  return lines;
}

async function verifyAtDoor(qrCode: string, at: { eventId: string; day: number } = { eventId, day: 1 }) {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(staffToken), payload: { ...at, qrCode, scanId: randomUUID() } });
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
  const texts = qrTextsOfTicketsPdf(signed.rawPayload);
  const printedCodes = texts.map((text) => parseSignedTicket(text)?.code);
  expect(printedCodes.every((printed) => printed !== undefined)).toBe(true);
  expect(printedCodes.toSorted()).toEqual(printable.toSorted());

  const plain = await asAdmin(t.app, { method: 'GET', url: api(manageTicketPaths.ticketsPdf(eventId)) });
  const plainTexts = qrTextsOfTicketsPdf(plain.rawPayload);
  expect(plainTexts).toEqual(printedCodes);

  const pia = texts[printedCodes.indexOf(inserted[0]?.code)];
  if (!pia) throw new Error('not printed');
  expect(await verifyAtDoor(pia)).toMatchObject({ isValid: true, holderName: 'Pia Printed' });
});

test("a signed QR code vouches for the days its ticket admits with its type's: a phone deciding it from the signature alone denies day 2 as the server does, from /manage and the CLI alike (docs/decisions/125, 135)", async () => {
  const fridayEventId = await createEvent(
    t.database.db,
    {
      organizationId,
      title: 'Signed Friday passes',
      description: '',
      date: '2026-12-04',
      location: '',
      status: 'live',
      timeZone: 'Europe/Berlin',
      dayCutoff: '04:00',
      allowsScanningOutsideDays: true,
      days: [
        { day: 1, name: 'Friday', date: '2026-12-04' },
        { day: 2, name: 'Saturday', date: '2026-12-05' },
      ],
    },
    cliActor(),
  );
  await createTicketType(t.database.db, fridayEventId, { name: 'Friday', checkInNote: '', requiresAttention: false, days: [1] }, cliActor());
  const friday = `FRIDAY-${randomUUID().toUpperCase()}`;
  // Its own day (2) and its type's (1) admit no day together: a signed text cannot say so.
  const noDay = `NO-DAY-${randomUUID().toUpperCase()}`;
  const [ticket] = await insertTickets(t.database.db, [
    { code: friday, eventId: fridayEventId, holderName: 'Frida Friday', ticketType: 'Friday' },
    { code: noDay, eventId: fridayEventId, holderName: 'Nils Noday', ticketType: 'Friday', admittedDays: [2] },
  ]);
  if (!ticket) throw new Error('no ticket');

  const png = await asAdmin(t.app, { method: 'GET', url: api(manageTicketPaths.ticketQr(fridayEventId, ticket.id, { signed: true })) });
  expect(png.statusCode, png.body).toBe(200);
  const text = qrTextOfPng(png.rawPayload);

  // What a phone does with a signed ticket its door list does not hold (apps/web offline-decision.ts):
  // verify the signature under the event's keys, then decide from the payload's days alone.
  const signed = parseSignedTicket(text);
  if (!signed) throw new Error(`not a signed text: ${text}`);
  expect(signed).toMatchObject({ eventId: fridayEventId, code: friday, days: [1] });
  const keys = await t.app.inject({ method: 'GET', url: api(offlinePaths.signingKeys(fridayEventId)), headers: bearer(staffToken) });
  expect(await verifySignedTicket(signed, EventSigningKeys.parse(keys.json()).keys)).toBe(true);
  const doorList = await t.app.inject({ method: 'GET', url: api(offlinePaths.doorList(fridayEventId, 2)), headers: bearer(staffToken) });
  expect(doorList.statusCode, doorList.body).toBe(200);
  const onThePhone = decideCheckIn({
    ticket: { eventId: signed.eventId, organizationId, isRevoked: false, admittedDays: signed.days },
    event: DoorList.parse(doorList.json()).event,
    day: 2,
    existingCheckIn: null,
    now: new Date(),
  });
  expect(onThePhone).toMatchObject({ outcome: 'denied', reason: 'not_valid_today' });
  expect(await verifyAtDoor(text, { eventId: fridayEventId, day: 2 })).toMatchObject({ isValid: false, reason: 'not_valid_today' });

  // The PDF and the CLI sign the same days; the ticket that admits no day keeps its plain code.
  const pdf = await asAdmin(t.app, { method: 'GET', url: api(manageTicketPaths.ticketsPdf(fridayEventId, { signed: true })) });
  expect(pdf.statusCode).toBe(200);
  expect(qrTextsOfTicketsPdf(pdf.rawPayload)).toEqual([text, noDay]);
  // Under each QR code, the days it admits, as the door decides them.
  const lines = textLinesOfPdf(pdf.rawPayload);
  expect(lines).toContain('Friday · Day 1');
  expect(lines).toContain('Friday · No day');
  const dir = t.config.dataDir;
  const cli = await runCli(['tickets', 'export-qr', '--event', fridayEventId, '--out', 'qr-friday', '--signed'], {
    env: { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') },
    database: t.database,
  });
  expect(cli.exitCode, cli.stderr).toBe(0);
  expect(qrTextOfPng(await readFile(path.join(dir, 'qr-friday', `${friday}.png`)))).toBe(text);
  expect(qrTextOfPng(await readFile(path.join(dir, 'qr-friday', `${noDay}.png`)))).toBe(noDay);
});

test('a signed download of an event with nothing to sign makes no signing key, from /manage or the CLI', async () => {
  const emptyEventId = await createEvent(
    t.database.db,
    { organizationId, title: 'Nothing signed yet', description: '', date: '2026-12-04', location: '', status: 'live', timeZone: 'Europe/Berlin', dayCutoff: '04:00', allowsScanningOutsideDays: true, days: [] },
    cliActor(),
  );
  const pdf = await asAdmin(t.app, { method: 'GET', url: api(manageTicketPaths.ticketsPdf(emptyEventId, { signed: true })) });
  expect(pdf.statusCode, pdf.body).toBe(200);
  expect(qrTextsOfTicketsPdf(pdf.rawPayload)).toEqual([]);
  const dir = t.config.dataDir;
  const cli = await runCli(['tickets', 'export-qr', '--event', emptyEventId, '--out', 'qr-empty', '--signed'], {
    env: { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') },
    database: t.database,
  });
  expect(cli.exitCode, cli.stderr).toBe(0);
  expect(cli.stdout).toContain('no tickets to print');
  expect(await t.database.db.select().from(eventSigningKeys).where(eq(eventSigningKeys.eventId, emptyEventId))).toEqual([]);
});

test('without a signing secret (PostgreSQL and no SIGNING_KEY_SECRET) a signed download is a 409 on `signed` that says why; plain codes still download', async () => {
  const bare = await createTestApp({ env: { DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused' } });
  try {
    const bareIds = await demoIds(bare.database.db);
    const bareEventId = bareIds.liveEventId;
    const token = await login(bare.app, DEMO_USER.username, DEMO_USER.password);
    const [ticket] = await insertTickets(bare.database.db, [{ code: `NO-SECRET-${randomUUID().toUpperCase()}`, eventId: bareEventId, holderName: 'Nora', ticketType: 'General Admission' }]);
    if (!ticket) throw new Error('no ticket');
    // An event with no tickets is refused alike: the server cannot sign, whatever there is to sign.
    const emptyEventId = await createEvent(
      bare.database.db,
      { organizationId: bareIds.organizationId, title: 'Empty', description: '', date: '2026-12-04', location: '', status: 'live', timeZone: 'Europe/Berlin', dayCutoff: '04:00', allowsScanningOutsideDays: true, days: [] },
      cliActor(),
    );
    const signedUrls = [manageTicketPaths.ticketQr(bareEventId, ticket.id, { signed: true }), manageTicketPaths.ticketsPdf(bareEventId, { signed: true }), manageTicketPaths.ticketsPdf(emptyEventId, { signed: true })];
    for (const url of signedUrls) {
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
