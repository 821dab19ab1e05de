/**
 * Many servers, one database (issue 14): three real server processes (the compiled dist/server.js, as `npm start` runs it) started at the
 * same moment on one empty PostgreSQL database behave as one server — one migration and one demo
 * seed, one approval per ticket and day however the scans are spread over them, one failed-sign-in
 * limit per account and address, and a crash of one leaves every approval a client saw in the database while the
 * others keep serving and stay ready. Runs under `npm run test:server:pg` (DATABASE_URL set).
 *
 * The embedded database cannot be shared (one process per data folder), so without DATABASE_URL the
 * file checks just that: a second server on the same folder refuses to start and says why.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { count, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { checkInLists, checkIns, organizations, scanLog, tickets, users } from '../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createCheckInList } from '../src/services/check-in-lists.ts';
import { createEvent, findEvent } from '../src/services/events.ts';
import { createSession } from '../src/services/sessions.ts';
import { demoIds } from './helpers/fixtures.ts';
import { startServer, type ServerProcess } from './helpers/server-process.ts';
import { createPostgresTestDatabase, type PostgresTestDatabase } from './helpers/test-app.ts';

/** Server processes on the one database. */
const INSTANCES = 3;
/** Tickets each verified by CONCURRENT_SCANS requests at once (issue 14: 1,000 trials). */
const TRIALS = 1_000;
const CONCURRENT_SCANS = 50;
/** Lists with one place left, each raced for by CONCURRENT_SCANS entries at once (docs/decisions/111). */
const CAPACITY_TRIALS = 20;
/**
 * RATE_LIMIT_ACCOUNT_MAX, the failures of one account from one address (every process sees the
 * test's 127.0.0.1) it allows before the first wait (⌈5 / 2⌉, docs/decisions/083), and how many
 * wrong passwords are sent at once (followed by the right one).
 */
const ACCOUNT_MAX = 5;
const FIRST_STEP = 3;
const FAILED_BURST = 30;
/** Tickets of the stream of scans during which one instance is killed, and how many run at once. */
const STREAM_TICKETS = 150;
const STREAM_CONCURRENCY = 12;
/** Answers the stream waits for before SIGKILL. */
const ANSWERS_BEFORE_KILL = 30;

const cleanups: (() => Promise<void>)[] = [];
const servers: ServerProcess[] = [];

async function stopAll(): Promise<void> {
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-multi-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

if (!process.env.DATABASE_URL) {
  afterAll(stopAll);
  test('on the embedded database a second server on the same data folder refuses to start and names the first', async () => {
    const dir = await dataDir();
    const first = startServer({ DATA_DIR: dir });
    servers.push(first);
    await first.url;
    const second = startServer({ DATA_DIR: dir });
    servers.push(second);
    // It never listens: its URL promise rejects with the output, which is read below instead.
    second.url.catch(() => undefined);
    expect((await second.exited).code).toBe(1);
    expect(second.output()).toMatch(new RegExp(`in use by process ${first.child.pid ?? 'none'}`));
    expect(second.output()).toContain('use PostgreSQL through DATABASE_URL');
  }, 120_000);
} else {
  describe('three server processes on one PostgreSQL database', () => {
    let created: PostgresTestDatabase;
    let handle: DatabaseHandle;
    const bases: string[] = [];
    let token = '';
    let eventId = '';

    beforeAll(async () => {
      created = await createPostgresTestDatabase();
      cleanups.push(() => created.drop());
      // Started at the same moment, on an empty database: each would migrate and seed it.
      const env = { DATABASE_URL: created.url, RATE_LIMIT_ACCOUNT_MAX: String(ACCOUNT_MAX), DATABASE_POOL_SIZE: '8' };
      const started = await Promise.all(Array.from({ length: INSTANCES }, async () => startServer({ ...env, DATA_DIR: await dataDir() })));
      servers.push(...started);
      bases.push(...(await Promise.all(started.map((server) => server.url))));
      handle = await openDatabase({ databaseUrl: created.url, poolSize: 4 });
      cleanups.push(() => handle.close());
      const [demoUser] = await handle.db.select({ id: users.id }).from(users).where(eq(users.username, DEMO_USER.username));
      if (!demoUser) throw new Error('demo user missing');
      token = (await createSession(handle.db, demoUser.id, 3_600_000)).token;
      eventId = (await demoIds(handle.db)).liveEventId;
    }, 180_000);
    afterAll(stopAll, 60_000);

    /** The instance a request goes to, in turn. */
    const baseOf = (n: number): string => bases[n % bases.length] ?? '';

    async function addTickets(prefix: string, n: number): Promise<string[]> {
      const codes = Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
      await handle.db.insert(tickets).values(codes.map((code) => ({ code, eventId, holderName: `Holder ${code}`, ticketType: 'General Admission' })));
      return codes;
    }

    function verify(base: string, qrCode: string, scanId: string = randomUUID()): Promise<Response> {
      return fetch(`${base}/api${apiPaths.verifyTicket}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ eventId, qrCode, day: DEMO_TODAY_DAY_NUMBER, scanId }),
        signal: AbortSignal.timeout(30_000),
      });
    }

    test('started together on an empty database, they migrate once and seed the demo data once', async () => {
      const outputs = servers.map((server) => server.output());
      expect(outputs.filter((output) => /\(applied \d+ migrations?\)/.test(output)), outputs.join('\n---\n')).toHaveLength(1);
      expect(outputs.filter((output) => output.includes('(seeded now:'))).toHaveLength(1);
      const applied = await handle.db.execute(sql`SELECT count(*)::int AS n, count(DISTINCT hash)::int AS distinct_n FROM drizzle.__drizzle_migrations`);
      const [row] = rowsOf<{ n: number; distinct_n: number }>(applied);
      expect(row?.n).toBeGreaterThanOrEqual(5);
      expect(row?.distinct_n).toBe(row?.n);
      const [userCount] = await handle.db.select({ value: count() }).from(users);
      const [organizationCount] = await handle.db.select({ value: count() }).from(organizations);
      expect(userCount?.value).toBe(3);
      expect(organizationCount?.value).toBe(2);
      for (const base of bases) expect((await fetch(`${base}/api${apiPaths.ready}`)).status).toBe(200);
    });

    test(`${TRIALS} trials of ${CONCURRENT_SCANS} concurrent verifies of one ticket, spread over the instances: exactly one approval each`, async () => {
      const codes = await addTickets('TRIAL-', TRIALS);
      const started = performance.now();
      for (const code of codes) {
        const verdicts = await Promise.all(
          Array.from({ length: CONCURRENT_SCANS }, async (_, n) => {
            const response = await verify(baseOf(n), code);
            expect(response.status).toBe(200);
            return VerifyTicketResponse.parse(await response.json());
          }),
        );
        const approvals = verdicts.filter((verdict) => verdict.isValid);
        expect(approvals, code).toHaveLength(1);
        expect(verdicts.filter((verdict) => !verdict.isValid && verdict.reason === 'already_checked_in')).toHaveLength(CONCURRENT_SCANS - 1);
      }
      const elapsedMs = performance.now() - started;
      process.stdout.write(`multi-instance: ${TRIALS} trials x ${CONCURRENT_SCANS} verifies over ${INSTANCES} instances in ${Math.round(elapsedMs)} ms\n`);
      const rows = await handle.db
        .select({ code: tickets.code, value: count() })
        .from(checkIns)
        .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
        .where(like(tickets.code, 'TRIAL-%'))
        .groupBy(tickets.code);
      expect(rows).toHaveLength(TRIALS);
      expect(rows.every((row) => row.value === 1)).toBe(true);
    }, 600_000);

    test(`${CAPACITY_TRIALS} trials of ${CONCURRENT_SCANS} concurrent entries for the last place of a list, spread over the instances: exactly one approved, the others at capacity`, async () => {
      const event = await findEvent(handle.db, eventId);
      for (let trial = 0; trial < CAPACITY_TRIALS; trial++) {
        const list = await createCheckInList(handle.db, event, { name: `Capacity ${trial} ${randomUUID().slice(0, 8)}`, ticketTypes: null, days: null, capacity: 2 }, cliActor());
        const [first, ...codes] = await addTickets(`CAP-${trial}-`, CONCURRENT_SCANS + 1);
        const enter = async (base: string, qrCode: string) => {
          const response = await fetch(`${base}/api${apiPaths.verifyTicket}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ eventId, qrCode, day: DEMO_TODAY_DAY_NUMBER, scanId: randomUUID(), checkInListId: list.id }),
            signal: AbortSignal.timeout(30_000),
          });
          expect(response.status).toBe(200);
          return VerifyTicketResponse.parse(await response.json());
        };
        expect(await enter(baseOf(trial), first ?? '')).toMatchObject({ isValid: true });
        const verdicts = await Promise.all(codes.map((code, n) => enter(baseOf(n), code)));
        expect(verdicts.filter((verdict) => verdict.isValid), `trial ${trial}`).toHaveLength(1);
        expect(verdicts.filter((verdict) => !verdict.isValid && verdict.reason === 'at_capacity')).toHaveLength(CONCURRENT_SCANS - 1);
        const [inside] = await handle.db.select({ value: count() }).from(checkIns).where(eq(checkIns.checkInListId, list.id));
        expect(inside?.value).toBe(2);
      }
    }, 300_000);

    test(`${CAPACITY_TRIALS} trials of ${CONCURRENT_SCANS} concurrent entries at two lists for the last place of a venue, spread over the instances: exactly one approved, the others at capacity`, async () => {
      const { organizationId } = await demoIds(handle.db);
      for (let trial = 0; trial < CAPACITY_TRIALS; trial++) {
        // An event with a capacity of 2 (docs/decisions/147) and a second list beside its 'All tickets'.
        const venueId = await createEvent(
          handle.db,
          { organizationId, title: `Venue ${trial}`, description: '', date: '2026-01-01', location: '', status: 'live', timeZone: 'UTC', dayCutoff: '04:00', allowsScanningOutsideDays: true, days: [], capacity: 2 },
          cliActor(),
        );
        const venue = await findEvent(handle.db, venueId);
        const side = await createCheckInList(handle.db, venue, { name: 'Side door', ticketTypes: null, days: null, allowsReentry: true }, cliActor());
        const main = (await handle.db.select({ id: checkInLists.id }).from(checkInLists).where(eq(checkInLists.eventId, venueId))).find((list) => list.id !== side.id);
        const codes = Array.from({ length: CONCURRENT_SCANS + 1 }, (_, i) => `VENUE-${trial}-${String(i).padStart(4, '0')}`);
        await handle.db.insert(tickets).values(codes.map((code) => ({ code, eventId: venueId, holderName: `Holder ${code}`, ticketType: 'General Admission' })));
        const enter = async (base: string, qrCode: string, checkInListId: string) => {
          const response = await fetch(`${base}/api${apiPaths.verifyTicket}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ eventId: venueId, qrCode, day: 1, scanId: randomUUID(), checkInListId }),
            signal: AbortSignal.timeout(30_000),
          });
          expect(response.status).toBe(200);
          return VerifyTicketResponse.parse(await response.json());
        };
        const [first, ...others] = codes;
        expect(await enter(baseOf(trial), first ?? '', side.id)).toMatchObject({ isValid: true });
        const verdicts = await Promise.all(others.map((code, n) => enter(baseOf(n), code, n % 2 === 0 ? (main?.id ?? '') : side.id)));
        expect(verdicts.filter((verdict) => verdict.isValid), `trial ${trial}`).toHaveLength(1);
        expect(verdicts.filter((verdict) => !verdict.isValid && verdict.reason === 'at_capacity')).toHaveLength(CONCURRENT_SCANS - 1);
        const [inside] = await handle.db.select({ value: count() }).from(checkIns).where(eq(checkIns.eventId, venueId));
        expect(inside?.value).toBe(2);
      }
    }, 300_000);

    test(`${FAILED_BURST} wrong passwords for one account at once, spread over the instances, then the right one: limited as one, ${FIRST_STEP} checked, the right one waits`, async () => {
      const statuses = await Promise.all(
        Array.from({ length: FAILED_BURST + 1 }, async (_, n) => {
          const response = await fetch(`${baseOf(n)}/api${apiPaths.login}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: DEMO_USER.email, password: n === FAILED_BURST ? DEMO_USER.password : `wrong-${n}` }),
          });
          if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
          return response.status;
        }),
      );
      expect(statuses.filter((status) => status === 401)).toHaveLength(FIRST_STEP);
      expect(statuses.filter((status) => status === 429)).toHaveLength(FAILED_BURST + 1 - FIRST_STEP);
      // Now the right password waits on every instance.
      for (const base of bases) {
        const response = await fetch(`${base}/api${apiPaths.login}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: DEMO_USER.username, password: DEMO_USER.password }),
        });
        expect(response.status).toBe(429);
        expect(await response.json()).toMatchObject({ code: 'rate_limited' });
      }
    }, 120_000);

    test('one instance killed with SIGKILL during a stream of verifies: every approval a client got is saved, the others keep serving and stay ready', async () => {
      const codes = await addTickets('STREAM-', STREAM_TICKETS);
      const victim = servers[0];
      if (!victim) throw new Error('no server');
      const survivors = bases.slice(1);
      let answered = 0;
      let killed = false;
      const readyStatuses: number[] = [];
      let streaming = true;
      const probing = (async () => {
        while (streaming) {
          for (const base of survivors) readyStatuses.push((await fetch(`${base}/api${apiPaths.ready}`)).status);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();

      type Attempt = { code: string; scanId: string; instance: number; afterKill: boolean; approved: boolean; error?: string };
      const attempts: Attempt[] = [];
      let next = 0;
      const worker = async () => {
        while (next < codes.length) {
          const index = next++;
          const code = codes[index] ?? '';
          const instance = index % INSTANCES;
          const scanId = randomUUID();
          const afterKill = killed;
          try {
            const response = await verify(bases[instance] ?? '', code, scanId);
            const verdict = VerifyTicketResponse.parse(await response.json());
            attempts.push({ code, scanId, instance, afterKill, approved: response.status === 200 && verdict.isValid });
            answered += 1;
            if (answered === ANSWERS_BEFORE_KILL) {
              killed = true;
              victim.child.kill('SIGKILL');
            }
          } catch (error) {
            attempts.push({ code, scanId, instance, afterKill, approved: false, error: String(error) });
          }
        }
      };
      await Promise.all(Array.from({ length: STREAM_CONCURRENCY }, worker));
      expect(await victim.exited).toEqual({ code: null, signal: 'SIGKILL' });

      // A client whose request got no answer retries it on another instance with the same scan id: it
      // gets the approval (the original one again, if the dead instance had committed it).
      const failed = attempts.filter((attempt) => attempt.error !== undefined);
      // Scans sent to the dead instance after the kill got no answer; no other scan failed.
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.every((attempt) => attempt.instance === 0)).toBe(true);
      for (const attempt of failed) {
        const response = await verify(survivors[0] ?? '', attempt.code, attempt.scanId);
        expect(VerifyTicketResponse.parse(await response.json()).isValid, attempt.code).toBe(true);
        attempt.approved = true;
        delete attempt.error;
      }
      streaming = false;
      await probing;

      expect(attempts).toHaveLength(STREAM_TICKETS);
      // Every scan of the survivors was answered and approved, after the kill as before it.
      const survivorAttempts = attempts.filter((attempt) => attempt.instance !== 0);
      expect(survivorAttempts.every((attempt) => attempt.approved)).toBe(true);
      expect(survivorAttempts.some((attempt) => attempt.afterKill)).toBe(true);
      expect(readyStatuses.length).toBeGreaterThan(0);
      expect(readyStatuses.every((status) => status === 200)).toBe(true);

      // Every approval a client received is in the database once, under its scan id, with its log row.
      const saved = await handle.db
        .select({ code: tickets.code, scanId: checkIns.scanId })
        .from(checkIns)
        .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
        .where(like(tickets.code, 'STREAM-%'));
      expect(saved).toHaveLength(STREAM_TICKETS);
      const savedScanIds = new Set(saved.map((row) => row.scanId));
      for (const attempt of attempts) expect(savedScanIds.has(attempt.scanId), attempt.code).toBe(true);
      const [logged] = await handle.db.select({ value: count() }).from(scanLog).where(like(scanLog.code, 'STREAM-%'));
      expect(logged?.value).toBeGreaterThanOrEqual(STREAM_TICKETS);
    }, 300_000);
  });
}
