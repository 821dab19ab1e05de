/**
 * The embedded database reaches the disk before the gate sees APPROVED (issue 15 item 13,
 * docs/decisions/026). A killed process loses nothing either way (server-shutdown.test.ts); a power
 * cut loses whatever is only in the OS page cache. So the real server process runs under strace, and
 * for every approval it answers, the WAL write of that commit must have been followed by an fsync or
 * fdatasync of the same WAL file before the first byte of the answer is written to the socket.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { afterEach, expect, test } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { openPgliteDir } from '../src/db/pglite-durable.ts';
import { prepareDoorDatabase } from './helpers/door-database.ts';
import { startServer, type ServerProcess } from './helpers/server-process.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';

/** Approvals to trace, one after another so that each answer follows its own commit. */
const SCANS = 5;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The system calls that write a file or a socket, or sync a file. */
const TRACED_CALLS = ['pwrite64', 'pwritev', 'pwritev2', 'write', 'writev', 'sendto', 'sendmsg', 'fsync', 'fdatasync'];

/** One traced call: where in the trace it started and ended (line numbers), and on what. */
interface TracedCall {
  call: string;
  /** The file or socket of its first argument, as `strace -yy` prints it (`/path`, `TCP:[…]`). */
  target: string;
  /** The first bytes it wrote, as strace prints them (escaped, cut short). */
  data: string;
  startLine: number;
  endLine: number;
}

/**
 * Parses `strace -f -yy -o` output into calls, joining `<unfinished ...>` lines with their
 * `<... resumed>` line of the same thread.
 */
function parseTrace(trace: string): TracedCall[] {
  const calls: TracedCall[] = [];
  const pending = new Map<string, TracedCall>();
  trace.split('\n').forEach((line, lineNumber) => {
    const resumed = /^(\d+)\s+<\.\.\. (\w+) resumed>/.exec(line);
    if (resumed) {
      const call = pending.get(`${resumed[1]} ${resumed[2]}`);
      if (call) call.endLine = lineNumber;
      return;
    }
    const started = /^(\d+)\s+(\w+)\(\d+<((?:->|[^>])*)>(?:, (?:\[\{iov_base=)?("(?:[^"\\]|\\.)*"))?/.exec(line);
    if (!started?.[2] || !TRACED_CALLS.includes(started[2])) return;
    const call: TracedCall = { call: started[2], target: started[3] ?? '', data: started[4] ?? '', startLine: lineNumber, endLine: lineNumber };
    calls.push(call);
    if (line.includes('<unfinished ...>')) pending.set(`${started[1]} ${started[2]}`, call);
  });
  return calls;
}

/**
 * For each HTTP answer in `calls` (a socket write starting `HTTP/1.1`), describes what is wrong with
 * the WAL before it: no WAL write since the previous answer, or no completed sync of the last written
 * WAL file between that write and the answer. Empty when every answer waited for its commit to be on
 * disk.
 */
function unsyncedAnswers(calls: TracedCall[]): string[] {
  const problems: string[] = [];
  let previousAnswerLine = -1;
  for (const answer of calls.filter((call) => call.target.startsWith('TCP') && call.data.startsWith('"HTTP/1.1 '))) {
    const before = calls.filter((call) => call.startLine > previousAnswerLine && call.startLine < answer.startLine);
    const lastWalWrite = before.filter((call) => call.target.includes('/pg_wal/') && call.call.startsWith('pwrite')).at(-1);
    if (!lastWalWrite) {
      problems.push(`answer at trace line ${answer.startLine + 1}: no WAL write since the previous answer`);
    } else if (
      !before.some(
        (call) => (call.call === 'fsync' || call.call === 'fdatasync') && call.target === lastWalWrite.target && call.startLine > lastWalWrite.startLine && call.endLine < answer.startLine,
      )
    ) {
      problems.push(`answer at trace line ${answer.startLine + 1}: ${lastWalWrite.target} written at line ${lastWalWrite.startLine + 1} but not synced before the answer`);
    }
    previousAnswerLine = answer.startLine;
  }
  return problems;
}

/** Fails with the install hint when strace is missing: this test must never pass without it. */
function requireStrace(): void {
  const version = spawnSync('strace', ['-V'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    throw new Error(`strace is needed to see the server's system calls: apt-get install -y strace (.ci/run installs it). ${version.error?.message ?? version.stderr}`);
  }
}

test('every approval on the embedded database is on disk (WAL write, then fsync of that WAL file) before its answer is sent', async () => {
  requireStrace();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-durability-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const codes = Array.from({ length: SCANS }, (_, i) => `DURABLE-${i}`);
  const door = await prepareDoorDatabase(() => openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') }), codes);

  const traceFile = path.join(dataDir, 'server.strace');
  const server: ServerProcess = startServer(
    { DATA_DIR: dataDir, SEED_DEMO: 'false' },
    { wrapper: ['strace', '-f', '-yy', '-s', '64', '-e', `trace=${TRACED_CALLS.join(',')}`, '-o', traceFile, '--'] },
  );
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null && server.child.pid) {
      process.kill(-server.child.pid, 'SIGKILL');
      await server.exited;
    }
  });
  const base = await server.url;

  for (const code of codes) {
    const response = await fetch(`${base}/api${apiPaths.verifyTicket}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${door.token}` },
      body: JSON.stringify({ eventId: door.eventId, qrCode: code, day: DEMO_TODAY_DAY_NUMBER, scanId: randomUUID() }),
    });
    expect(response.status).toBe(200);
    expect(VerifyTicketResponse.parse(await response.json()).isValid, code).toBe(true);
  }
  // SIGTERM to the group reaches the server (strace ignores it while it traces a command and exits
  // with the server's status once the server has stopped), so the trace file is complete.
  if (server.child.pid) process.kill(-server.child.pid, 'SIGTERM');
  expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });

  const calls = parseTrace(await readFile(traceFile, 'utf8'));
  const answers = calls.filter((call) => call.target.startsWith('TCP') && call.data.startsWith('"HTTP/1.1 '));
  expect(answers.map((answer) => answer.data.slice(0, 16))).toEqual(Array.from({ length: SCANS }, () => '"HTTP/1.1 200 OK'));
  expect(unsyncedAnswers(calls)).toEqual([]);
}, 120_000);

test('a commit whose WAL sync fails is refused, never reported as done', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-durability-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const client = await openPgliteDir(path.join(dataDir, 'pgdata'));
  cleanups.push(() => client.close().catch(() => undefined));
  await client.exec('CREATE TABLE door (code text)');
  // The disk fails every sync from here on, as a dying disk or a yanked USB stick does. (Node's own
  // fs, not our code: the host side of PGlite's fsync.)
  const realFsyncSync = fs.fsyncSync;
  fs.fsyncSync = () => {
    throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
  };
  syncBuiltinESMExports();
  try {
    await expect(client.query("INSERT INTO door VALUES ('GC-1')")).rejects.toThrow(/could not fsync/);
  } finally {
    fs.fsyncSync = realFsyncSync;
    syncBuiltinESMExports();
  }
});
