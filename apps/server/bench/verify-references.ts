/**
 * The two references of `npm run bench:verify` (issue 13 item 1), each in a process of its own like
 * the server it is compared with:
 *
 * - `tsx bench/verify-references.ts http`: a bare Fastify app with one POST route of the verify
 *   shape (JSON body in, a small JSON verdict out; no validation, no database, no hooks): the HTTP
 *   stack's limit on this machine. Prints `listening at <url>`; SIGTERM stops it.
 * - `tsx bench/verify-references.ts sql`: the SQL one check-in needs (`CHECK_IN_SQL` below), issued
 *   straight through the driver — PGlite in `$PGLITE_DIR` (durable at commit, as the server opens
 *   it, docs/decisions/026; named statements and kept statistics as the server has them, decisions
 *   071 and 072) or a `pg` pool of `$POOL_SIZE` connections to `$DATABASE_URL` (named
 *   prepared statements) — by N concurrent workers: the database's limit. Driven over IPC: a
 *   message `SqlLoad` runs one load and answers a `SqlLoadResult`. Needs `$BENCH_SETUP` (JSON
 *   `SqlSetup`).
 *
 * Not for real data: it writes check-ins and scan-log rows for the tickets it is given.
 */
import { createHash } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { openPgliteDir } from '../src/db/pglite-durable.ts';
import { withNamedStatements } from '../src/db/pglite-named-statements.ts';
import { keepStatistics } from '../src/db/pglite-statistics.ts';

/**
 * What one check-in needs from the database, in the fewest round trips the rules allow (the rules
 * themselves — event status, days, calendar — are decided in JavaScript between the read and the
 * write, as the server does):
 *
 * 1. `session`: the live session of the bearer token's SHA-256 (who scans).
 * 2. `read`: the event (with its days, its check-in lists and organization), whether the scanner is
 *    a member, the ticket by code (case-insensitive, with its event's organization) and its active
 *    check-in of the day at the event's first check-in list (docs/decisions/100).
 * 3. `approve`: the exactly-once INSERT of the check-in (ON CONFLICT on the active check-in's unique
 *    key DO NOTHING) and, when it inserted, the scan-log row, in one statement (one transaction).
 *    `deny`: the scan-log row of a denial.
 */
export const CHECK_IN_SQL = {
  session: `SELECT s.id, u.id AS user_id, u.display_name FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now() LIMIT 1`,
  read: `SELECT e.id, e.status, e.title, e.date, e.organization_id, e.time_zone, e.day_cutoff, e.allows_scanning_outside_days, o.name AS organization_name,
      (SELECT coalesce(json_agg(json_build_object('day', d.day, 'name', d.name, 'date', d.date) ORDER BY d.day), '[]') FROM event_days d WHERE d.event_id = e.id) AS days,
      (SELECT coalesce(json_agg(json_build_object('id', l.id, 'name', l.name, 'ticketTypes', l.ticket_types, 'days', l.days) ORDER BY l.position, l.created_at, l.id), '[]') FROM check_in_lists l WHERE l.event_id = e.id) AS lists,
      (SELECT l.id FROM check_in_lists l WHERE l.event_id = e.id ORDER BY l.position, l.created_at, l.id LIMIT 1) AS check_in_list_id,
      EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = $2 AND m.organization_id = e.organization_id) AS is_member,
      t.id AS ticket_id, t.event_id AS ticket_event_id, te.organization_id AS ticket_organization_id, t.holder_name, t.ticket_type, t.admitted_days, t.revoked_at,
      c.checked_in_at, c.scan_id, c.staff_user_id, cu.display_name AS checked_in_by
    FROM events e JOIN organizations o ON o.id = e.organization_id
    LEFT JOIN tickets t ON upper(t.code) = upper($3)
    LEFT JOIN events te ON te.id = t.event_id
    LEFT JOIN check_ins c ON c.event_id = t.event_id AND c.check_in_list_id = (SELECT l.id FROM check_in_lists l WHERE l.event_id = e.id ORDER BY l.position, l.created_at, l.id LIMIT 1)
      AND c.day = $4 AND c.ticket_id = t.id AND c.undone_at IS NULL
    LEFT JOIN users cu ON cu.id = c.staff_user_id
    WHERE e.id = $1`,
  approve: `WITH inserted AS (
      INSERT INTO check_ins (event_id, ticket_id, day, staff_user_id, scan_id, check_in_list_id) VALUES ($1, $2, $3, $4, $5, $7)
      ON CONFLICT (event_id, check_in_list_id, day, ticket_id) WHERE undone_at IS NULL DO NOTHING
      RETURNING checked_in_at),
    logged AS (
      INSERT INTO scan_log (user_id, event_id, day, code, verdict, scan_id, source)
      SELECT $4, $1, $3, $6, 'approved', $5, 'scan' FROM inserted)
    SELECT checked_in_at FROM inserted`,
  deny: `INSERT INTO scan_log (user_id, event_id, day, code, verdict, reason, scan_id, source) VALUES ($1, $2, $3, $4, 'denied', 'already_checked_in', $5, 'scan')`,
} as const;

/** The bench's ticket codes: `prefix` and a 6-digit number, from 0 to n − 1. */
export const codesOf = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(6, '0')}`);

/** What the SQL worker needs: the session token, the event, the day, and the codes to scan (`codesOf`). */
export interface SqlSetup {
  token: string;
  eventId: string;
  day: number;
  /** Codes of unused tickets, each approved once. */
  approve: { prefix: string; count: number };
  /** Codes of tickets already checked in on `day`, scanned again and again (denials). */
  deny: { prefix: string; count: number };
}

/** One load: `connections` concurrent workers for `seconds`, approving fresh tickets or denying used ones. */
export interface SqlLoad {
  kind: 'approve' | 'deny';
  connections: number;
  seconds: number;
}

/** What a load did: expected outcomes, the time it took (s), latency percentiles (ms), and what went wrong. */
export interface SqlLoadResult {
  count: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  firstFailure: string;
}

/**
 * The codes a worker scans: fresh tickets (`approve`, each used once: `nextApprove` is the next
 * unused one, a cursor rather than `shift()`, which copies a 60,000-element array on every call) and
 * checked-in ones (`deny`, used round-robin).
 */
interface Codes {
  approve: string[];
  nextApprove: number;
  deny: string[];
}

/** One statement through the driver: text, parameters, and a name for a prepared statement. */
type Query = (name: keyof typeof CHECK_IN_SQL, values: unknown[]) => Promise<Record<string, unknown>[]>;

/** The p-th percentile (0–100) of `sorted` (ascending). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** One scan's SQL; true when the outcome is the expected one (an approval, or an already-checked-in denial). */
async function scanOnce(query: Query, setup: SqlSetup, tokenHash: string, kind: SqlLoad['kind'], code: string): Promise<boolean> {
  const [session] = await query('session', [tokenHash]);
  const userId = session?.user_id;
  if (typeof userId !== 'string') return false;
  const [row] = await query('read', [setup.eventId, userId, code, setup.day]);
  if (!row?.is_member || typeof row.ticket_id !== 'string') return false;
  const scanId = randomUUID();
  if (kind === 'approve') {
    if (row.checked_in_at) return false;
    const inserted = await query('approve', [setup.eventId, row.ticket_id, setup.day, userId, scanId, code, row.check_in_list_id]);
    return inserted.length === 1;
  }
  if (!row.checked_in_at) return false;
  await query('deny', [userId, setup.eventId, setup.day, code, scanId]);
  return true;
}

async function runLoad(query: Query, setup: SqlSetup, codes: Codes, load: SqlLoad): Promise<SqlLoadResult> {
  const tokenHash = createHash('sha256').update(setup.token).digest('hex');
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure = '';
  let denyIndex = 0;
  const startedAt = performance.now();
  const endAt = startedAt + load.seconds * 1000;
  const worker = async () => {
    while (performance.now() < endAt) {
      const code = load.kind === 'approve' ? codes.approve[codes.nextApprove++] : codes.deny[denyIndex++ % codes.deny.length];
      if (code === undefined) {
        failures += 1;
        firstFailure ||= 'no unused tickets left';
        return;
      }
      const began = performance.now();
      try {
        if (await scanOnce(query, setup, tokenHash, load.kind, code)) latencies.push(performance.now() - began);
        else {
          failures += 1;
          firstFailure ||= `${code}: not the expected outcome`;
        }
      } catch (error) {
        failures += 1;
        firstFailure ||= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: load.connections }, worker));
  const seconds = (performance.now() - startedAt) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return { count: latencies.length, seconds, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), failures, firstFailure };
}

async function serveSql(): Promise<void> {
  const setup = JSON.parse(process.env.BENCH_SETUP ?? 'null') as SqlSetup | null;
  if (!setup) throw new Error('BENCH_SETUP is missing');
  let query: Query;
  let close: () => Promise<void>;
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
    pool.on('error', () => undefined);
    query = async (name, values) => (await pool.query({ name, text: CHECK_IN_SQL[name], values })).rows as Record<string, unknown>[];
    close = () => pool.end();
  } else {
    const dir = process.env.PGLITE_DIR;
    if (!dir) throw new Error('PGLITE_DIR or DATABASE_URL is needed');
    const client = await openPgliteDir(dir);
    // As the server uses PGlite: named statements (decision 071) and statistics kept current as
    // check-ins accumulate (decision 072), so the reference is the database's limit, not a stale plan's.
    const named = withNamedStatements(client);
    const stopStatistics = keepStatistics(drizzlePglite({ client: named }), {
      onError: (error) => process.stderr.write(`updating statistics failed: ${String(error)}\n`),
    });
    query = async (name, values) => (await named.query<Record<string, unknown>>(CHECK_IN_SQL[name], values)).rows;
    close = async () => {
      stopStatistics();
      await client.close();
    };
  }
  const codes: Codes = { approve: codesOf(setup.approve.prefix, setup.approve.count), nextApprove: 0, deny: codesOf(setup.deny.prefix, setup.deny.count) };
  process.on('message', (message: SqlLoad) => {
    void runLoad(query, setup, codes, message).then((result) => process.send?.(result));
  });
  process.on('SIGTERM', () => void close().then(() => process.exit(0)));
  process.send?.({ ready: true });
}

async function serveHttp(): Promise<void> {
  const app = Fastify({ logger: false });
  app.post('/api/tickets/verify', async (request) => {
    const body = request.body as { qrCode?: string };
    return { isValid: true, eventName: 'Reference', holderName: `Holder ${body.qrCode ?? ''}`, ticketType: 'General Admission', checkedInAt: new Date().toISOString() };
  });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`listening at ${url}\n`);
}

const mode = process.argv[2];
if (mode === 'http') await serveHttp();
else if (mode === 'sql') await serveSql();
else if (import.meta.url === `file://${process.argv[1]}`) {
  process.stderr.write('usage: verify-references.ts http|sql\n');
  process.exit(2);
}
