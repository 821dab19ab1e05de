/**
 * Stopping the real server process in the middle of a burst of scans (issue 4 "Graceful shutdown"):
 * SIGTERM lets every in-flight request finish before the database closes; SIGKILL (a crash) leaves no
 * half-written check-in, and the database opens again and the server verifies the next ticket. On the
 * embedded database always, and on PostgreSQL too when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { and, count, eq, like } from 'drizzle-orm';
import { afterEach, expect, test, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { checkIns, scanLog, tickets } from '../src/db/schema.ts';
import { prepareDoorDatabase } from './helpers/door-database.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { startServer, type ServerProcess } from './helpers/server-process.ts';
import { createPostgresTestDatabase } from './helpers/test-app.ts';

/** Concurrent verifies in the burst, each of its own ticket. */
const BURST = 100;
/** Responses to wait for before SIGKILL, so that some check-ins are committed and others in flight. */
const ANSWERS_BEFORE_KILL = 10;
const CODE_PREFIX = 'BURST-';

type Kind = 'pglite' | 'postgres';
const KINDS: Kind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A database prepared for the server process, with the demo data and BURST + 1 fresh tickets. */
interface Prepared {
  env: Record<string, string>;
  open(): Promise<DatabaseHandle>;
  token: string;
  eventId: string;
  codes: string[];
  /** One more ticket, never part of the burst. */
  spareCode: string;
}

const cleanups: (() => Promise<void>)[] = [];
const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function prepare(kind: Kind): Promise<Prepared> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-shutdown-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  let env: Record<string, string>;
  let open: () => Promise<DatabaseHandle>;
  if (kind === 'postgres') {
    const created = await createPostgresTestDatabase();
    cleanups.push(() => created.drop());
    env = { DATA_DIR: dataDir, DATABASE_URL: created.url };
    open = () => openDatabase({ databaseUrl: created.url, poolSize: 4 });
  } else {
    env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    open = () => openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  }
  const codes = Array.from({ length: BURST + 1 }, (_, i) => `${CODE_PREFIX}${String(i).padStart(3, '0')}`);
  const { token, eventId } = await prepareDoorDatabase(open, codes);
  return { env, open, token, eventId, codes: codes.slice(0, BURST), spareCode: codes[BURST] ?? '' };
}

function start(env: Record<string, string>): ServerProcess {
  const server = startServer(env);
  servers.push(server);
  return server;
}

/** What one request of the burst got. */
type Outcome =
  | { code: string; scanId: string; answered: true; status: number; body: string; afterSignal: boolean }
  | { code: string; scanId: string; answered: false; error: string };

function verify(base: string, prepared: Prepared, code: string, scanId: string): Promise<Response> {
  return fetch(`${base}/api${apiPaths.verifyTicket}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${prepared.token}` },
    body: JSON.stringify({ eventId: prepared.eventId, qrCode: code, day: DEMO_TODAY_DAY_NUMBER, scanId }),
    signal: AbortSignal.timeout(60_000),
  });
}

/**
 * Sends one verify per burst ticket, all at once, and calls `onAnswer(n)` after the n-th complete
 * answer (body read). A request whose connection is refused or dropped counts as not answered.
 */
async function fireBurst(base: string, prepared: Prepared, onAnswer: (answered: number) => void, isSignalled: () => boolean): Promise<Outcome[]> {
  let answered = 0;
  return Promise.all(
    prepared.codes.map(async (code): Promise<Outcome> => {
      const scanId = randomUUID();
      try {
        const response = await verify(base, prepared, code, scanId);
        const body = await response.text();
        const afterSignal = isSignalled();
        answered += 1;
        onAnswer(answered);
        return { code, scanId, answered: true, status: response.status, body, afterSignal };
      } catch (error) {
        return { code, scanId, answered: false, error: error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error) };
      }
    }),
  );
}

/** Every check-in and approved scan-log row of the burst tickets, by scan id. */
async function burstRows(handle: DatabaseHandle) {
  const checkInRows = await handle.db
    .select({ code: tickets.code, day: checkIns.day, scanId: checkIns.scanId })
    .from(checkIns)
    .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
    .where(like(tickets.code, `${CODE_PREFIX}%`));
  const approvedLog = await handle.db
    .select({ code: scanLog.code, scanId: scanLog.scanId })
    .from(scanLog)
    .where(and(like(scanLog.code, `${CODE_PREFIX}%`), eq(scanLog.verdict, 'approved')));
  const [logged] = await handle.db.select({ value: count() }).from(scanLog).where(like(scanLog.code, `${CODE_PREFIX}%`));
  const duplicates = await handle.db
    .select({ ticketId: checkIns.ticketId, day: checkIns.day, value: count() })
    .from(checkIns)
    .groupBy(checkIns.ticketId, checkIns.day);
  return {
    checkInRows,
    approvedLog,
    loggedCount: logged?.value ?? -1,
    duplicated: duplicates.filter((row) => row.value > 1),
  };
}

/**
 * Checks an answer of the burst: a complete approval (fresh tickets). Requests that reach the server
 * while it stops are finished too (`return503OnClosing: false`), so there is no 503 to accept.
 */
function expectCompleteAnswer(outcome: Extract<Outcome, { answered: true }>): void {
  expect(outcome.status, outcome.body).toBe(200);
  const verdict = VerifyTicketResponse.parse(JSON.parse(outcome.body));
  expect(verdict.isValid, outcome.body).toBe(true);
}

for (const kind of KINDS) {
  test(`SIGTERM during a burst of ${BURST} scans answers every accepted request completely, records each approval once, and exits 0 (${kind})`, async () => {
    const prepared = await prepare(kind);
    const server = start(prepared.env);
    const base = await server.url;

    let signalled = false;
    const outcomes = await fireBurst(
      base,
      prepared,
      (answered) => {
        if (answered === 1) {
          signalled = true;
          server.child.kill('SIGTERM');
        }
      },
      () => signalled,
    );
    expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });

    const answeredOutcomes = outcomes.filter((outcome) => outcome.answered);
    const unanswered = outcomes.filter((outcome) => !outcome.answered);
    const summary = `answered ${answeredOutcomes.length}, unanswered ${unanswered.length}: ${unanswered.slice(0, 3).map((outcome) => outcome.error).join('; ')}`;
    for (const outcome of answeredOutcomes) expectCompleteAnswer(outcome);
    expect(answeredOutcomes.length + unanswered.length).toBe(BURST);
    const approvals = answeredOutcomes.filter((outcome) => outcome.status === 200);
    // The drain itself: requests that were in flight when the signal came were still answered.
    expect(approvals.filter((outcome) => outcome.afterSignal).length, summary).toBeGreaterThan(0);

    const handle = await prepared.open();
    try {
      const rows = await burstRows(handle);
      // Nothing was committed without its answer reaching the client, and every approval is saved once
      // under the scan id that asked for it, with its scan-log row.
      expect(rows.checkInRows.map((row) => row.scanId).sort(), summary).toEqual(approvals.map((outcome) => outcome.scanId).sort());
      expect(rows.checkInRows.every((row) => row.day === DEMO_TODAY_DAY_NUMBER)).toBe(true);
      expect(rows.approvedLog.map((row) => row.scanId).sort()).toEqual(approvals.map((outcome) => outcome.scanId).sort());
      expect(rows.loggedCount).toBe(approvals.length);
      expect(rows.duplicated).toEqual([]);
    } finally {
      await handle.close();
    }
    // Not a speed measure: under Fastify's 72 s keep-alive timeout, so a shutdown that waits for idle
    // keep-alive connections to time out (72 s after the signal, on top of the set-up and the burst)
    // fails here instead of passing slowly. 70 s, not 60: the set-up and the burst took 61 s once on
    // a machine at load 20 (23 s alone).
  }, 70_000);

  test(`SIGKILL during a burst of ${BURST} scans leaves no half-written check-in, and the server starts again and verifies the next ticket (${kind})`, async () => {
    const prepared = await prepare(kind);
    const server = start(prepared.env);
    const base = await server.url;

    let killed = false;
    const outcomes = await fireBurst(
      base,
      prepared,
      (answered) => {
        if (answered === ANSWERS_BEFORE_KILL) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      },
      () => killed,
    );
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const approvals = outcomes.filter((outcome) => outcome.answered && outcome.status === 200);
    expect(approvals.length).toBeGreaterThanOrEqual(ANSWERS_BEFORE_KILL);

    // The dead process's lock (PGlite) must not keep the database closed.
    const handle = await prepared.open();
    try {
      const rows = await burstRows(handle);
      const checkedIn = rows.checkInRows.map((row) => row.scanId).sort();
      // The check-in and its scan-log row commit together or not at all.
      expect(rows.approvedLog.map((row) => row.scanId).sort()).toEqual(checkedIn);
      // Every approval a client saw is saved; more may be saved whose answer was lost with the process.
      for (const approval of approvals) expect(checkedIn).toContain(approval.scanId);
      expect(rows.duplicated).toEqual([]);
    } finally {
      await handle.close();
    }

    const restarted = start(prepared.env);
    const restartedBase = await restarted.url;
    const response = await verify(restartedBase, prepared, prepared.spareCode, randomUUID());
    expect(response.status).toBe(200);
    expect(VerifyTicketResponse.parse(await response.json()).isValid).toBe(true);
    // A ticket of the burst that the dead server approved stays checked in.
    const again = await verify(restartedBase, prepared, approvals[0]?.code ?? '', randomUUID());
    expect(VerifyTicketResponse.parse(await again.json())).toMatchObject({ isValid: false, reason: 'already_checked_in' });
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toEqual({ code: 0, signal: null });
  }, 180_000);
}

test('SIGTERM flips readiness to 503 first: for SHUTDOWN_DELAY_SECONDS the server still verifies and answers health, then drains and exits 0', async () => {
  const prepared = await prepare('pglite');
  const server = start({ ...prepared.env, SHUTDOWN_DELAY_SECONDS: '3' });
  const base = await server.url;
  expect((await fetch(`${base}/api${apiPaths.ready}`)).status).toBe(200);
  server.child.kill('SIGTERM');
  const notReady = await vi.waitFor(
    async () => {
      const response = await fetch(`${base}/api${apiPaths.ready}`);
      expect(response.status).toBe(503);
      return response.json();
    },
    { timeout: 2_500, interval: 20 },
  );
  expect(notReady).toEqual({ code: 'not_ready', message: 'This server is shutting down.' });
  // Still serving while the load balancer takes it out of rotation.
  expect((await fetch(`${base}/api${apiPaths.health}`)).status).toBe(200);
  const response = await verify(base, prepared, prepared.spareCode, randomUUID());
  expect(response.status).toBe(200);
  expect(VerifyTicketResponse.parse(await response.json()).isValid).toBe(true);
  expect(server.child.exitCode).toBeNull();
  expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });
}, 120_000);
