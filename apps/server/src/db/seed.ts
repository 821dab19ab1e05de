/**
 * Demo data for a first start (issue 2): the demo account (admin of the demo organization, staff of
 * the second one), a supervisor and a staff member of the demo organization (one user per role,
 * issue 11), two organizations, a live 3-day event, a
 * single-day event without configured days, a draft event, and 220 tickets with realistic holders.
 * Optionally writes every ticket to `<ticketsDir>/tickets.csv` and one `<code>.png` QR per ticket, so
 * a person can scan them from a second screen.
 *
 * Holder names and ticket mixes are reproducible (faker with a fixed seed); ticket codes are not:
 * they come from crypto random bytes so they cannot be guessed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { addCalendarDays, DEFAULT_DAY_CUTOFF, eventToday } from '@gatecheck/contract';
import { faker } from '@faker-js/faker/locale/en_GB';
import { count } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { Db } from './client.ts';
import { inTransaction } from './transactions.ts';
import { eventDays, events, memberships, organizations, users } from './schema.ts';
import { hashPassword } from '../services/passwords.ts';
import { csvText } from '../services/csv-files.ts';
import { generateTicketCode } from '../services/ticket-codes.ts';
import { insertTickets } from '../services/tickets.ts';

/** The demo account printed at startup and used by the end-to-end test. */
export const DEMO_USER = {
  email: 'demo@example.com',
  username: 'demo',
  password: 'demo-scanner',
  displayName: 'Demo Staff',
  country: 'GB',
} as const;

/** The demo organization's supervisor (issue 11): attendee search, undo, scan log. */
export const DEMO_SUPERVISOR = {
  email: 'sam@example.com',
  username: 'sam',
  password: 'sam-supervisor',
  displayName: 'Sam Rivers',
  country: 'GB',
} as const;

/** A second staff member of the demo organization (a different name in "checked in by"). */
export const DEMO_COLLEAGUE = {
  email: 'alex@example.com',
  username: 'alex',
  password: 'alex-scanner',
  displayName: 'Alex Morgan',
  country: 'GB',
} as const;

export const DEMO_ORGANIZATION_NAME = 'Northwind Live';
export const DEMO_EMPTY_ORGANIZATION_NAME = 'Eastside Community Theatre';
export const DEMO_LIVE_EVENT_TITLE = 'Harbour Lights Festival';
export const DEMO_SINGLE_DAY_EVENT_TITLE = 'Autumn Tech Summit';
export const DEMO_DRAFT_EVENT_TITLE = 'Winter Gala';

/** The demo events' venue clock (issue 15): the live event's day 2 is today on it. */
export const DEMO_TIME_ZONE = 'Europe/London';

/** The live demo event's day that is today at seeding (days 1 and 3 are yesterday and tomorrow). */
export const DEMO_TODAY_DAY_NUMBER = 2;

/** Header of tickets.csv (issue 2); `days` is `all` or day numbers joined by `|` (e.g. `1|3`). */
export const TICKETS_CSV_COLUMNS = ['code', 'event_title', 'holder_name', 'ticket_type', 'days'] as const;

/** One seeded ticket as written to tickets.csv. `days` null = every day of the event. */
export interface DemoTicket {
  code: string;
  eventTitle: string;
  holderName: string;
  ticketType: string;
  days: number[] | null;
  isRevoked: boolean;
}

/** What seedDemoData created. */
export interface DemoSeedSummary {
  tickets: DemoTicket[];
  /** The folder holding tickets.csv and the PNGs, when files were written. */
  ticketsDir: string | undefined;
}

/** Whether the database has no users yet (a first start). */
async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ value: count() }).from(users);
  return (row?.value ?? 0) === 0;
}

/**
 * Seeds the demo data in one transaction, then (with `ticketsDir`) writes tickets.csv and the QR PNGs.
 * `today` (default now) anchors the event dates: the live event runs from yesterday to tomorrow on
 * its own calendar (Europe/London, cut-off 06:00), so its day 2 is the day that admits today.
 * @throws when the demo users already exist (unique violation) or a file cannot be written.
 */
export async function seedDemoData(db: Db, options: { ticketsDir?: string; today?: Date } = {}): Promise<DemoSeedSummary> {
  const today = options.today ?? new Date();
  const todayAtVenue = eventToday({ timeZone: DEMO_TIME_ZONE, dayCutoff: DEFAULT_DAY_CUTOFF }, today);
  const venueDate = (offsetDays: number) => addCalendarDays(todayAtVenue, offsetDays);
  const [demoHash, colleagueHash, supervisorHash] = await Promise.all([
    hashPassword(DEMO_USER.password),
    hashPassword(DEMO_COLLEAGUE.password),
    hashPassword(DEMO_SUPERVISOR.password),
  ]);
  const plan = planTickets();

  await inTransaction(db, async (tx) => {
    const [demo, colleague, supervisor] = await tx
      .insert(users)
      .values([
        { ...pickAccount(DEMO_USER), passwordHash: demoHash },
        { ...pickAccount(DEMO_COLLEAGUE), passwordHash: colleagueHash },
        { ...pickAccount(DEMO_SUPERVISOR), passwordHash: supervisorHash },
      ])
      .returning({ id: users.id });
    const [northwind, eastside] = await tx
      .insert(organizations)
      .values([
        { name: DEMO_ORGANIZATION_NAME, description: 'Festivals and live music on the south-west coast.' },
        { name: DEMO_EMPTY_ORGANIZATION_NAME, description: 'A volunteer-run theatre. No events scheduled yet.' },
      ])
      .returning({ id: organizations.id });
    if (!demo || !colleague || !supervisor || !northwind || !eastside) throw new Error('demo seed: insert returned no row');
    await tx.insert(memberships).values([
      { userId: demo.id, organizationId: northwind.id, role: 'admin' },
      { userId: colleague.id, organizationId: northwind.id, role: 'staff' },
      { userId: supervisor.id, organizationId: northwind.id, role: 'supervisor' },
      { userId: demo.id, organizationId: eastside.id, role: 'staff' },
    ]);
    const [live, single] = await tx
      .insert(events)
      .values([
        {
          organizationId: northwind.id,
          title: DEMO_LIVE_EVENT_TITLE,
          description: 'Three days of music, food and lights along the harbour.',
          date: venueDate(-1),
          location: 'Harbourside, Bristol',
          status: 'live',
          timeZone: DEMO_TIME_ZONE,
        },
        {
          organizationId: northwind.id,
          title: DEMO_SINGLE_DAY_EVENT_TITLE,
          description: 'Talks and workshops on the web platform.',
          date: venueDate(14),
          location: 'Exhibition Centre, Manchester',
          status: 'upcoming',
          timeZone: DEMO_TIME_ZONE,
        },
        {
          organizationId: northwind.id,
          title: DEMO_DRAFT_EVENT_TITLE,
          description: 'An evening of dinner and dancing. Details to follow.',
          date: venueDate(60),
          location: 'The Assembly Rooms, Bath',
          status: 'draft',
          timeZone: DEMO_TIME_ZONE,
        },
      ])
      .returning({ id: events.id });
    if (!live || !single) throw new Error('demo seed: insert returned no row');
    await tx.insert(eventDays).values([
      { eventId: live.id, day: 1, name: 'Opening Night', date: venueDate(-1) },
      { eventId: live.id, day: 2, name: 'Main Day', date: venueDate(0) },
      { eventId: live.id, day: 3, name: 'Closing Day', date: venueDate(1) },
    ]);
    const eventIdOf = new Map([
      [DEMO_LIVE_EVENT_TITLE, live.id],
      [DEMO_SINGLE_DAY_EVENT_TITLE, single.id],
    ]);
    await insertTickets(
      tx,
      plan.map((ticket) => ({
        code: ticket.code,
        eventId: eventIdOf.get(ticket.eventTitle) ?? live.id,
        holderName: ticket.holderName,
        ticketType: ticket.ticketType,
        admittedDays: ticket.days,
        revokedAt: ticket.isRevoked ? today : null,
      })),
    );
  });

  if (options.ticketsDir) await writeTicketFiles(options.ticketsDir, plan);
  return { tickets: plan, ticketsDir: options.ticketsDir };
}

/**
 * Seeds the demo data when the database has no users.
 * @returns the summary, or null when the database already had data.
 */
export async function seedDemoIfEmpty(db: Db, options: { ticketsDir?: string; today?: Date } = {}): Promise<DemoSeedSummary | null> {
  if (!(await isDatabaseEmpty(db))) return null;
  return seedDemoData(db, options);
}

/**
 * Writes `tickets.csv` (TICKETS_CSV_COLUMNS; revoked tickets last, so the first rows are usable) and
 * one `<code>.png` QR per ticket into `dir`.
 */
async function writeTicketFiles(dir: string, list: DemoTicket[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const ordered = [...list.filter((t) => !t.isRevoked), ...list.filter((t) => t.isRevoked)];
  const csv = csvText(
    TICKETS_CSV_COLUMNS,
    ordered.map((t) => [t.code, t.eventTitle, t.holderName, t.ticketType, t.days ? t.days.join('|') : 'all']),
  );
  await writeFile(path.join(dir, 'tickets.csv'), csv);
  for (const ticket of ordered) {
    await QRCode.toFile(path.join(dir, `${ticket.code}.png`), ticket.code, {
      errorCorrectionLevel: 'M',
      margin: 4,
      // 8 px per module (about 260 px for a demo code): sharp on a second screen, and 4x faster to
      // write than 512 px, which matters on every fresh start.
      scale: 8,
    });
  }
}

function pickAccount(account: typeof DEMO_USER | typeof DEMO_COLLEAGUE | typeof DEMO_SUPERVISOR) {
  return {
    email: account.email,
    username: account.username,
    displayName: account.displayName,
    country: account.country,
  };
}

/**
 * 160 tickets for the live event (all-day passes first, then day passes and two-day student
 * tickets), 60 for the single-day event, and 6 of them revoked.
 */
function planTickets(): DemoTicket[] {
  faker.seed(20261121);
  const make = (eventTitle: string, ticketType: string, days: number[] | null, isRevoked = false): DemoTicket => ({
    code: generateTicketCode(),
    eventTitle,
    holderName: faker.person.fullName(),
    ticketType,
    days,
    isRevoked,
  });
  const list: DemoTicket[] = [];
  for (let i = 0; i < 100; i++) {
    const type = faker.helpers.weightedArrayElement([
      { weight: 5, value: 'Weekend Pass' },
      { weight: 3, value: 'General Admission' },
      { weight: 1, value: 'VIP' },
    ]);
    list.push(make(DEMO_LIVE_EVENT_TITLE, type, null));
  }
  for (let i = 0; i < 40; i++) {
    const day = (i % 3) + 1;
    list.push(make(DEMO_LIVE_EVENT_TITLE, 'Day Pass', [day]));
  }
  for (let i = 0; i < 16; i++) list.push(make(DEMO_LIVE_EVENT_TITLE, 'Student', [1, 3]));
  for (let i = 0; i < 4; i++) list.push(make(DEMO_LIVE_EVENT_TITLE, 'Weekend Pass', null, true));
  for (let i = 0; i < 58; i++) {
    const type = faker.helpers.weightedArrayElement([
      { weight: 6, value: 'General Admission' },
      { weight: 2, value: 'Student' },
      { weight: 1, value: 'VIP' },
    ]);
    list.push(make(DEMO_SINGLE_DAY_EVENT_TITLE, type, i % 10 === 0 ? [1] : null));
  }
  for (let i = 0; i < 2; i++) list.push(make(DEMO_SINGLE_DAY_EVENT_TITLE, 'General Admission', null, true));
  return list;
}
