/**
 * The database away for a while (issue 27 item 2), on a real PostgreSQL cluster the test owns and two
 * real server processes (the compiled dist/server.js, as `npm start` runs it):
 * - stopped: `pg_ctl stop -m immediate` for OUTAGE_MS, then started again;
 * - black-holed: a proxy between the server and PostgreSQL stops forwarding and holds every socket
 *   (connections open but never answer) for OUTAGE_MS; afterwards new connections go through, the
 *   held ones stay dead.
 * Gates scan all along as phones do (./gates.ts). Each run checks: every verify is answered within
 * the phone's 3 s cut-over, with a 200 or a 503 `{ code, message }` + `Retry-After`, never a 500;
 * GET /api/ready says 503 while the database is away and 200 again after; the same process serves
 * again by itself within RECOVERY_LIMIT_MS of the database's return; the database cause is logged
 * once; the phones' queued scans are accepted afterwards; and in the database, every ticket a gate
 * admitted (online or offline) has exactly one active check-in.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { events, tickets, users } from '../../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../../src/db/seed.ts';
import { createSession } from '../../src/services/sessions.ts';
import { demoIds } from '../helpers/fixtures.ts';
import { startServer, type ServerProcess } from '../helpers/server-process.ts';
import { startBlackHoleProxy, type BlackHoleProxy } from './black-hole-proxy.ts';
import { activeCheckInsByCode, PHONE_CUT_OVER_MS, pollReadiness, startGates, uploadQueued, verifyOnce, type Door } from './gates.ts';
import { createPostgresCluster, type PostgresCluster } from './postgres-cluster.ts';

/** How long the database is away (issue 27: 60 s; FAULT_OUTAGE_SECONDS shortens it while developing). */
const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_SECONDS ?? 60) * 1000;
/** Gates scanning at once, and the pause between one gate's scans. */
const GATES = 4;
const SCAN_INTERVAL_MS = 250;
/** How soon after the database is back the same server must approve again. */
const RECOVERY_LIMIT_MS = 30_000;

const cleanups: (() => unknown)[] = [];
let cluster: PostgresCluster;
let proxy: BlackHoleProxy;
let direct: ServerProcess;
let proxied: ServerProcess;
let handle: DatabaseHandle;
let token = '';
let eventId = '';
let ticketNumber = 0;

async function started(server: ServerProcess): Promise<string> {
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });
  return server.url;
}

beforeAll(async () => {
  cluster = await createPostgresCluster();
  cleanups.push(() => cluster.destroy());
  proxy = await startBlackHoleProxy(cluster.port);
  cleanups.push(() => proxy.close());
  const dirs = await Promise.all([1, 2].map(() => mkdtemp(path.join(tmpdir(), 'gatecheck-faults-'))));
  cleanups.push(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  const env = { SEED_DEMO: 'true', DATABASE_POOL_SIZE: '8', LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
  direct = startServer({ ...env, DATABASE_URL: cluster.url, DATA_DIR: dirs[0] ?? '' });
  await started(direct);
  proxied = startServer({ ...env, DATABASE_URL: cluster.urlThrough(proxy.port), DATA_DIR: dirs[1] ?? '' });
  await started(proxied);
  handle = await openDatabase({ databaseUrl: cluster.url, poolSize: 2 }, { migrate: false });
  cleanups.push(() => handle.close());
  const [demoUser] = await handle.db.select({ id: users.id }).from(users).where(eq(users.username, DEMO_USER.username));
  if (!demoUser) throw new Error('demo user missing');
  token = (await createSession(handle.db, demoUser.id, 3_600_000)).token;
  eventId = (await demoIds(handle.db)).liveEventId;
  const [event] = await handle.db.select({ id: events.id }).from(events).where(eq(events.id, eventId));
  if (!event) throw new Error('demo event missing');
  const codes = Array.from({ length: 6_000 }, (_, i) => `AWAY-${String(i).padStart(5, '0')}`);
  for (let i = 0; i < codes.length; i += 1_000) {
    await handle.db.insert(tickets).values(codes.slice(i, i + 1_000).map((code) => ({ code, eventId, holderName: `Holder ${code}`, ticketType: 'General Admission' })));
  }
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}, 60_000);

function doorOf(baseUrl: string): Door {
  return { baseUrl, token, eventId, day: DEMO_TODAY_DAY_NUMBER, nextCode: () => `AWAY-${String(ticketNumber++).padStart(5, '0')}` };
}

/** Log lines (JSON) of `server` printed after `offset` characters whose msg matches `pattern`. */
function logLines(server: ServerProcess, offset: number, pattern: RegExp): string[] {
  return server
    .output()
    .slice(offset)
    .split('\n')
    .filter((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        return typeof parsed === 'object' && parsed !== null && 'msg' in parsed && pattern.test(String(parsed.msg));
      } catch {
        return false;
      }
    });
}

/**
 * Runs the gates through one fault: `begin` takes the database away, `end` brings it back after
 * OUTAGE_MS; then waits until a verify is approved again. Checks everything the module comment lists.
 */
async function throughFault(server: ServerProcess, fault: { begin(): void; end(): void; name: string }): Promise<void> {
  const baseUrl = await server.url;
  const door = doorOf(baseUrl);
  const logOffset = server.output().length;
  const gates = startGates(door, GATES, SCAN_INTERVAL_MS);
  const readiness = pollReadiness(baseUrl, 500);
  const clock = performance.now();
  const sinceStart = () => Math.round(performance.now() - clock);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const faultStartMs = sinceStart();
  fault.begin();
  await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
  fault.end();
  const faultEndMs = sinceStart();
  // Back by itself: the first approval after the database returned, without restarting anything.
  let recoveredAtMs: number | undefined;
  while (sinceStart() - faultEndMs < RECOVERY_LIMIT_MS + PHONE_CUT_OVER_MS) {
    const probe = await verifyOnce(door, door.nextCode(), crypto.randomUUID(), clock);
    if (probe.shown === 'approved') {
      gates.outcomes.push(probe);
      recoveredAtMs = sinceStart();
      break;
    }
    if (probe.shown === 'offline') gates.queued.push({ scanId: probe.scanId, code: probe.code, scannedAt: new Date().toISOString(), deviceId: 'gate-probe' });
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // Serving again for a while: the outage's end is logged 5 s after its last 503.
  await new Promise((resolve) => setTimeout(resolve, 8_000));
  await gates.stop();
  await readiness.stop();
  const { outcomes, queued } = gates;
  const byStatus = Object.groupBy(outcomes, (outcome) => String(outcome.status));
  const slowest = Math.max(...outcomes.map((outcome) => outcome.elapsedMs));
  const slowestDuring = Math.max(...outcomes.filter((o) => o.status === 503).map((outcome) => outcome.elapsedMs), 0);
  process.stdout.write(
    `database-away (${fault.name}): ${outcomes.length} verifies (${Object.entries(byStatus).map(([status, list]) => `${status}: ${list?.length ?? 0}`).join(', ')}), ` +
      `slowest answer ${slowest} ms (slowest 503 ${slowestDuring} ms), outage ${faultEndMs - faultStartMs} ms, ` +
      `approving again ${recoveredAtMs === undefined ? 'never' : `${recoveredAtMs - faultEndMs} ms`} after the database returned, ${queued.length} scans queued on the gates\n`,
  );

  // Every verify answered within the phone's cut-over, with an approval or a fast, clear 503.
  expect(outcomes.filter((outcome) => outcome.status === 0).map((outcome) => `${outcome.code} sent at ${outcome.sentAtMs} ms: no answer`)).toEqual([]);
  expect(outcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 503).map((o) => `${o.status} ${JSON.stringify(o.body)}`)).toEqual([]);
  for (const outcome of outcomes.filter((o) => o.status === 503)) {
    expect(outcome.body).toEqual({ code: expect.any(String), message: expect.stringMatching(/\S/) });
    expect(outcome.retryAfter).toMatch(/^[1-9]\d*$/);
  }
  expect(outcomes.filter((outcome) => outcome.shown === 'denied')).toEqual([]);
  expect(byStatus['503']?.length ?? 0).toBeGreaterThan(0);
  // Readiness: ready before, not ready while the database was away, ready again at the end.
  const during = readiness.statuses.filter((entry) => entry.atMs > faultStartMs + PHONE_CUT_OVER_MS && entry.atMs < faultEndMs);
  expect(readiness.statuses.filter((entry) => entry.atMs < faultStartMs - 1000).map((entry) => entry.status)).not.toContain(503);
  expect(during.length).toBeGreaterThan(0);
  expect(during.filter((entry) => entry.status !== 503)).toEqual([]);
  expect(readiness.statuses.at(-1)?.status).toBe(200);
  // The same process, never restarted, approving again soon after the database returned.
  expect(server.child.exitCode).toBeNull();
  expect(recoveredAtMs, 'no approval after the database returned').toBeDefined();
  // The cause in the log once, not per request; and that it answers again.
  const causes = logLines(server, logOffset, /^database unavailable/);
  const ends = logLines(server, logOffset, /^database answers again/);
  expect(causes, causes.join('\n')).toHaveLength(1);
  expect(ends, ends.join('\n')).toHaveLength(1);

  // The phones' queue after the outage: every scan taken (a verify that reached the database before
  // it went away is already recorded under the same scanId: `duplicate`).
  const results = await uploadQueued(door, queued);
  expect(results.filter((result) => result.status !== 'recorded' && result.status !== 'duplicate')).toEqual([]);
  // In the database: every admission a gate showed, online or offline, is one active check-in.
  const admitted = [...outcomes.filter((outcome) => outcome.shown !== 'denied').map((outcome) => outcome.code), ...queued.map((item) => item.code)];
  const counts = await activeCheckInsByCode(handle.db, door, [...new Set(admitted)]);
  expect([...new Set(admitted)].filter((code) => counts.get(code) !== 1).map((code) => `${code}: ${counts.get(code) ?? 0}`)).toEqual([]);
}

test('PostgreSQL stopped (pg_ctl stop -m immediate) for a minute: fast 503s, not ready, back by itself, nothing lost', async () => {
  await throughFault(direct, { name: 'stopped', begin: () => cluster.stopImmediately(), end: () => cluster.start() });
}, OUTAGE_MS + 120_000);

test('the network to PostgreSQL black-holed for a minute: fast 503s, not ready, back by itself, nothing lost', async () => {
  // The proxied server lived through the stop above too: it must be serving before its own fault.
  await expect.poll(async () => (await verifyOnce(doorOf(await proxied.url), doorOf('').nextCode(), crypto.randomUUID(), 0)).status, { timeout: 30_000 }).toBe(200);
  await throughFault(proxied, { name: 'black-holed', begin: () => proxy.blackHole(), end: () => proxy.restore() });
  expect(proxy.counts().held).toBeGreaterThan(0);
}, OUTAGE_MS + 120_000);
