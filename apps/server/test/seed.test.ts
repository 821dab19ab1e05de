import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { events, tickets } from '../src/db/schema.ts';
import { DEMO_LIVE_EVENT_TITLE, seedDemoIfEmpty, TICKETS_CSV_COLUMNS } from '../src/db/seed.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let ticketsDir: string;
beforeAll(async () => {
  t = await createTestApp({ writeTicketFiles: true });
  ticketsDir = t.demo?.ticketsDir ?? '';
});
afterAll(async () => {
  await t.close();
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test('the demo seed writes tickets.csv whose rows match the tickets in the database', async () => {
  const csv = await readFile(path.join(ticketsDir, 'tickets.csv'), 'utf8');
  expect(csv.split('\n')[0]).toBe(TICKETS_CSV_COLUMNS.join(','));
  const rows: Array<Record<string, string>> = parse(csv, { columns: true });
  expect(rows.length).toBeGreaterThanOrEqual(200);

  const stored = await t.database.db
    .select({ code: tickets.code, holderName: tickets.holderName, ticketType: tickets.ticketType, days: tickets.admittedDays, eventTitle: events.title })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId));
  const fromDb = stored.map((ticket) => ({
    code: ticket.code,
    event_title: ticket.eventTitle,
    holder_name: ticket.holderName,
    ticket_type: ticket.ticketType,
    days: ticket.days ? ticket.days.join('|') : 'all',
  }));
  const byCode = (a: { code?: string }, b: { code?: string }) => (a.code ?? '').localeCompare(b.code ?? '');
  expect([...rows].sort(byCode)).toEqual(fromDb.sort(byCode));
  expect(rows.some((row) => row.days === 'all')).toBe(true);
  expect(rows.some((row) => row.days === '1|3')).toBe(true);
  expect(rows.some((row) => /^\d$/.test(row.days ?? ''))).toBe(true);
});

test('the first demo tickets in the CSV are usable all-day tickets of the live event', async () => {
  const rows: Array<Record<string, string>> = parse(await readFile(path.join(ticketsDir, 'tickets.csv'), 'utf8'), { columns: true });
  expect(rows[0]).toMatchObject({ event_title: DEMO_LIVE_EVENT_TITLE, days: 'all' });
  const [first] = await t.database.db.select().from(tickets).where(eq(tickets.code, rows[0]?.code ?? ''));
  expect(first?.revokedAt).toBeNull();
});

test('the demo seed writes one QR PNG per ticket, named by its code', async () => {
  const files = (await readdir(ticketsDir)).filter((file) => file.endsWith('.png'));
  const codes = (t.demo?.tickets ?? []).map((ticket) => `${ticket.code}.png`);
  expect(files.sort()).toEqual(codes.sort());
  const png = await readFile(path.join(ticketsDir, files[0] ?? ''));
  expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
});

test('demo ticket codes are GC- and 16 random base32 characters, all different', () => {
  const codes = (t.demo?.tickets ?? []).map((ticket) => ticket.code);
  expect(codes.every((code) => /^GC-[A-Z2-7]{16}$/.test(code))).toBe(true);
  expect(new Set(codes).size).toBe(codes.length);
});

test('seeding again on a database with users does nothing', async () => {
  expect(await seedDemoIfEmpty(t.database.db)).toBeNull();
  const all = await t.database.db.select({ code: tickets.code }).from(tickets);
  expect(all).toHaveLength(t.demo?.tickets.length ?? -1);
});
