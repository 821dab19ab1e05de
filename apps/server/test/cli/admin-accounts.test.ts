import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventDays, events, memberships, users } from '../../src/db/schema.ts';
import { checkCredentials } from '../../src/services/users.ts';
import { createCliFixture, idIn, type CliFixture } from './cli-harness.ts';

let cli: CliFixture;

beforeAll(async () => {
  cli = await createCliFixture();
});
afterAll(async () => {
  await cli.close();
});

/** Exactly one line on stderr, no stack trace. */
function expectOneLineError(stderr: string, pattern: RegExp) {
  expect(stderr).toMatch(pattern);
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\s+at .+\(.+:\d+:\d+\)/);
}

test('user create makes an account that can sign in with the given password', async () => {
  const out = await cli.ok('user', 'create', '--email', 'Sam@Example.com', '--username', 'sam', '--name', 'Sam Lee', '--password', 'door-staff-1', '--country', 'gb');
  const id = idIn(out);
  expect(out).not.toMatch(/Password \(generated/);
  expect(await checkCredentials(cli.database.db, 'sam@example.com', 'door-staff-1')).toBe(id);
  const [row] = await cli.database.db.select().from(users).where(eq(users.id, id));
  expect(row).toMatchObject({ displayName: 'Sam Lee', country: 'GB', email: 'Sam@Example.com' });
  expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
});

test('user create without --password generates one, prints it once, and it signs in', async () => {
  const out = await cli.ok('user', 'create', '--email', 'kim@example.com', '--username', 'kim', '--name', 'Kim Park');
  const password = /Password \(generated, shown once\): (\S+)/.exec(out)?.[1] ?? '';
  expect(password.length).toBeGreaterThanOrEqual(16);
  expect(await checkCredentials(cli.database.db, 'kim', password)).toBe(idIn(out));
});

test('user create refuses a taken email or username, whatever its case', async () => {
  const email = await cli.run('user', 'create', '--email', 'SAM@example.com', '--username', 'other', '--name', 'X', '--password', 'long-enough');
  expect(email.exitCode).toBe(1);
  expectOneLineError(email.stderr, /^error: A user with email SAM@example.com already exists/);
  const username = await cli.run('user', 'create', '--email', 'new@example.com', '--username', 'SAM', '--name', 'X', '--password', 'long-enough');
  expect(username.exitCode).toBe(1);
  expectOneLineError(username.stderr, /username SAM already exists/);
});

test('two user create at once with the same email, or the same username: one account each time, the other told which is taken', async () => {
  const create = (email: string, username: string) => cli.run('user', 'create', '--email', email, '--username', username, '--name', 'Twin', '--password', 'long-enough');
  // Both runs check before either inserts (the password hash lies between): the unique index decides.
  const [sameEmail, sameUsername] = await Promise.all([
    Promise.all([create('twin@example.com', 'twin-a'), create('TWIN@example.com', 'twin-b')]),
    Promise.all([create('pat-a@example.com', 'pat'), create('pat-b@example.com', 'PAT')]),
  ]);
  for (const [pair, pattern] of [
    [sameEmail, /^error: A user with email (twin|TWIN)@example\.com already exists/],
    [sameUsername, /^error: A user with username (pat|PAT) already exists/],
  ] as const) {
    expect(pair.map((result) => result.exitCode).sort()).toEqual([0, 1]);
    const loser = pair.find((result) => result.exitCode === 1);
    expectOneLineError(loser?.stderr ?? '', pattern);
  }
  const stored = await cli.database.db.select({ username: users.username }).from(users).where(inArray(users.username, ['twin-a', 'twin-b', 'pat', 'PAT']));
  expect(stored).toHaveLength(2);
});

test('user create rejects bad values with the option named', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['--email', 'not-an-email', '--username', 'user1', '--name', 'N', '--password', 'long-enough'], /option --email/],
    [['--email', 'a@example.com', '--username', 'no spaces', '--name', 'N', '--password', 'long-enough'], /option --username: Username may contain/],
    [['--email', 'a@example.com', '--username', 'user1', '--name', 'N', '--password', 'short'], /option --password: Password must be at least 8/],
    [['--email', 'a@example.com', '--username', 'user1', '--name', 'N', '--password', 'long-enough', '--country', '1X'], /option --country/],
    [['--username', 'user1', '--name', 'N'], /required option '--email <email>' not specified/],
  ];
  for (const [args, pattern] of cases) {
    const result = await cli.run('user', 'create', ...args);
    expect(result.exitCode).toBe(1);
    expectOneLineError(result.stderr, pattern);
  }
});

test('org create, then add-member by organization name and username or email, with roles', async () => {
  const orgId = idIn(await cli.ok('org', 'create', '--name', 'Northwind Live', '--description', 'Festivals'));
  expect(await cli.ok('org', 'add-member', '--org', 'northwind live', '--user', 'sam', '--role', 'admin')).toMatch(/Added sam to "Northwind Live" as admin/);
  expect(await cli.ok('org', 'add-member', '--org', orgId, '--user', 'kim@example.com')).toMatch(/as staff/);
  expect(await cli.ok('org', 'add-member', '--org', orgId, '--user', 'kim', '--role', 'supervisor')).toMatch(/from staff to supervisor/);
  const rows = await cli.database.db
    .select({ role: memberships.role, username: users.username })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, orgId))
    .orderBy(users.username);
  expect(rows).toEqual([
    { role: 'supervisor', username: 'kim' },
    { role: 'admin', username: 'sam' },
  ]);
  expect(await cli.ok('org', 'list')).toMatch(new RegExp(`${orgId}\\s+Northwind Live\\s+2\\s+0`));
});

test('org create refuses a name that is taken, ignoring case', async () => {
  const result = await cli.run('org', 'create', '--name', 'NORTHWIND LIVE');
  expect(result.exitCode).toBe(1);
  expectOneLineError(result.stderr, /already exists/);
});

test('add-member names the unknown organization, user or role', async () => {
  const org = await cli.run('org', 'add-member', '--org', 'Nobody Inc', '--user', 'sam');
  expectOneLineError(org.stderr, /^error: No organization with id or name "Nobody Inc"/);
  const user = await cli.run('org', 'add-member', '--org', 'Northwind Live', '--user', 'ghost');
  expectOneLineError(user.stderr, /^error: No user with email or username "ghost"/);
  const role = await cli.run('org', 'add-member', '--org', 'Northwind Live', '--user', 'sam', '--role', 'boss');
  expectOneLineError(role.stderr, /Allowed choices are staff, supervisor, admin/);
  expect([org.exitCode, user.exitCode, role.exitCode]).toEqual([1, 1, 1]);
});

test('event create stores the status and numbered days given with --days or repeated --day', async () => {
  const threeDays = idIn(
    await cli.ok(
      'event', 'create', '--org', 'Northwind Live', '--title', 'Harbour Lights', '--date', '2026-12-01', '--status', 'live',
      '--location', 'Harbourside', '--days', 'Opening Night:2026-12-01, Main Day:2026-12-02,Closing Day:2026-12-03',
    ),
  );
  const twoDays = idIn(
    await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Summit', '--date', '2027-01-10', '--day', 'Talks:2027-01-10', '--day', '2027-01-11'),
  );
  const [event] = await cli.database.db.select().from(events).where(eq(events.id, threeDays));
  expect(event).toMatchObject({ title: 'Harbour Lights', date: '2026-12-01', status: 'live', location: 'Harbourside' });
  const days = await cli.database.db.select().from(eventDays).where(eq(eventDays.eventId, threeDays)).orderBy(eventDays.day);
  expect(days.map((day) => [day.day, day.name, day.date])).toEqual([
    [1, 'Opening Night', '2026-12-01'],
    [2, 'Main Day', '2026-12-02'],
    [3, 'Closing Day', '2026-12-03'],
  ]);
  const summitDays = await cli.database.db.select().from(eventDays).where(eq(eventDays.eventId, twoDays)).orderBy(eventDays.day);
  expect(summitDays.map((day) => [day.day, day.name])).toEqual([
    [1, 'Talks'],
    [2, 'Day 2'],
  ]);
  const [summit] = await cli.database.db.select().from(events).where(eq(events.id, twoDays));
  expect(summit?.status).toBe('draft');
});

test('event create takes the calendar (time zone, day cut-off, scanning outside the days) and event set changes it (issue 15)', async () => {
  const plain = idIn(await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Plain Night', '--date', '2026-12-05'));
  const [defaults] = await cli.database.db.select().from(events).where(eq(events.id, plain));
  expect(defaults).toMatchObject({ timeZone: 'UTC', dayCutoff: '06:00:00', allowsScanningOutsideDays: false });

  const created = await cli.ok(
    'event', 'create', '--org', 'Northwind Live', '--title', 'Late Night', '--date', '2026-12-06',
    '--time-zone', 'America/New_York', '--day-cutoff', '04:30', '--scan-outside-days', 'yes',
  );
  expect(created).toMatch(/Days are dates in America\/New_York; each admits until 04:30 the next morning; scanning is also allowed outside them/);
  const lateNight = idIn(created);
  const [stored] = await cli.database.db.select().from(events).where(eq(events.id, lateNight));
  expect(stored).toMatchObject({ timeZone: 'America/New_York', dayCutoff: '04:30:00', allowsScanningOutsideDays: true });

  const updated = await cli.ok('event', 'set', '--event', lateNight, '--time-zone', 'Europe/Berlin', '--scan-outside-days', 'no', '--status', 'live');
  expect(updated).toMatch(/Updated event "Late Night", live/);
  const [changed] = await cli.database.db.select().from(events).where(eq(events.id, lateNight));
  expect(changed).toMatchObject({ timeZone: 'Europe/Berlin', dayCutoff: '04:30:00', allowsScanningOutsideDays: false, status: 'live' });

  const cases: Array<[string[], RegExp]> = [
    [['event', 'create', '--org', 'Northwind Live', '--title', 'Y', '--date', '2026-12-01', '--time-zone', 'Europe/Londn'], /Expected an IANA time zone/],
    [['event', 'create', '--org', 'Northwind Live', '--title', 'Y', '--date', '2026-12-01', '--day-cutoff', '25:00'], /Expected a time as HH:MM/],
    [['event', 'set', '--event', lateNight, '--scan-outside-days', 'maybe'], /Expected yes or no/],
    [['event', 'set', '--event', lateNight], /Nothing to change/],
  ];
  for (const [args, pattern] of cases) {
    const result = await cli.run(...args);
    expect(result.exitCode).toBe(1);
    expectOneLineError(result.stderr, pattern);
  }
});

test('event list shows every event with its id, and --org narrows it', async () => {
  const other = idIn(await cli.ok('org', 'create', '--name', 'Eastside Theatre'));
  await cli.ok('event', 'create', '--org', other, '--title', 'Play Night', '--date', '2026-12-24', '--status', 'upcoming');
  const all = await cli.ok('event', 'list');
  expect(all).toMatch(/Harbour Lights/);
  expect(all).toMatch(/Play Night/);
  const listed = JSON.parse(await cli.ok('event', 'list', '--org', 'Eastside Theatre', '--json'));
  expect(listed).toEqual([expect.objectContaining({ title: 'Play Night', status: 'upcoming', organizationName: 'Eastside Theatre', days: 0, tickets: 0 })]);
});

test('event create rejects an impossible date, an unknown status, a bad day and an unknown organization', async () => {
  const base = ['event', 'create', '--org', 'Northwind Live', '--title', 'X'];
  const cases: Array<[string[], RegExp]> = [
    [[...base, '--date', '2026-02-30'], /option '--date <YYYY-MM-DD>' argument '2026-02-30' is invalid/],
    [[...base, '--date', '2026-12-01', '--status', 'open'], /Allowed choices are live, draft, upcoming/],
    [[...base, '--date', '2026-12-01', '--day', 'Opening:tomorrow'], /Day "Opening:tomorrow": expected Name:YYYY-MM-DD/],
    [[...base, '--date', '2026-12-01', '--day', '2026-12-01', '--days', '2026-12-02'], /either with --day .* or with --days/],
    [['event', 'create', '--org', 'Nope', '--title', 'X', '--date', '2026-12-01'], /No organization with id or name "Nope"/],
  ];
  for (const [args, pattern] of cases) {
    const result = await cli.run(...args);
    expect(result.exitCode).toBe(1);
    expectOneLineError(result.stderr, pattern);
  }
  expect(await cli.database.db.select().from(events).where(eq(events.title, 'X'))).toHaveLength(0);
});
