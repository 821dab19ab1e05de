/**
 * The query-plan review of the hot paths (issue 13 item 4, docs/decisions/060): the SQL the server
 * really sends — captured with Drizzle's query logger while real requests go through the app
 * (`app.inject`) — then EXPLAINed statement by statement with its own parameters, so the review
 * follows the queries when the services change. Used by `npm run bench:scale` (EXPLAIN ANALYZE at
 * 1,000,000 tickets) and by test/query-plans.test.ts (with `enable_seqscan = off`: each hot
 * statement has an index it can use).
 *
 * Every EXPLAIN runs in a transaction that is rolled back, so an EXPLAIN ANALYZE of an INSERT or
 * UPDATE (which executes it) leaves nothing behind.
 */
import {
  apiPaths,
  checkInCountsPath,
  CheckInLists,
  checkInListsPath,
  DoorList,
  liveDoorPaths,
  offlinePaths,
  supervisorPaths,
} from '@gatecheck/contract';
import { type Logger, type SQL, sql, TransactionRollbackError } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/db/client.ts';
import { api, bearer } from './test-app.ts';

/** One statement Drizzle sent: which request it served, the SQL (`$n` placeholders) and its parameters. */
export interface CapturedStatement {
  label: string;
  sql: string;
  params: unknown[];
}

/**
 * A Drizzle `Logger` (pass it to `openDatabase({ ... }, { logger })`) that keeps the statements sent
 * while `during(label, work)` runs; statements outside `during` are ignored.
 */
export class StatementRecorder implements Logger {
  readonly statements: CapturedStatement[] = [];
  private label: string | undefined;

  logQuery(query: string, params: unknown[]): void {
    if (this.label !== undefined) this.statements.push({ label: this.label, sql: query, params: [...params] });
  }

  /** Runs `work`, recording the statements it sends under `label`. Not reentrant. */
  async during<T>(label: string, work: () => Promise<T>): Promise<T> {
    this.label = label;
    try {
      return await work();
    } finally {
      this.label = undefined;
    }
  }
}

/** What one hot-path walk needs: an admin's bearer token, the event and day, and codes to scan. */
export interface HotPathSubject {
  token: string;
  eventId: string;
  day: number;
  /** A ticket of the event not checked in on `day` (verify approves it, then denies it as already used). */
  freshCode: string;
  /**
   * More such tickets (at least 3), scanned all at once, then again: the statements of scans
   * coalesced into one (docs/decisions/070).
   */
  codesAtOnce: readonly string[];
  /** What a supervisor types into the attendee search (at least 3 characters). */
  searchText: string;
}

/**
 * Sends the hot-path requests to `app` once each, recording their statements: verify (approval,
 * the same ticket again, an unknown code; then `codesAtOnce` at once, twice), the live counts (of the
 * day, then with the event's first check-in list), the
 * attendee search, the door list in full and since the cursor of that download. Each answer must be a 200 (checked: a refused request
 * would record the wrong statements).
 * @throws Error naming the request that did not answer 200.
 */
export async function recordHotPaths(app: FastifyInstance, recorder: StatementRecorder, subject: HotPathSubject): Promise<void> {
  const headers = bearer(subject.token);
  const send = async (label: string, request: { method: 'GET' | 'POST'; url: string; payload?: object }) => {
    const response = await recorder.during(label, () => app.inject({ ...request, headers }));
    if (response.statusCode !== 200) throw new Error(`${label}: ${request.method} ${request.url} answered ${response.statusCode} ${response.body.slice(0, 300)}`);
    return response;
  };
  const verify = (label: string, qrCode: string) =>
    send(label, { method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: subject.eventId, qrCode, day: subject.day } });
  await verify('verify: approval', subject.freshCode);
  await verify('verify: already checked in', subject.freshCode);
  await verify('verify: unknown code', 'NO-SUCH-TICKET-CODE');
  const verifyAtOnce = async (label: string) => {
    const responses = await recorder.during(label, () =>
      Promise.all(
        subject.codesAtOnce.map((qrCode) =>
          app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers, payload: { eventId: subject.eventId, qrCode, day: subject.day } }),
        ),
      ),
    );
    const refused = responses.find((response) => response.statusCode !== 200);
    if (refused) throw new Error(`${label}: verify answered ${refused.statusCode} ${refused.body.slice(0, 300)}`);
  };
  await verifyAtOnce('verify: scans at once');
  await verifyAtOnce('verify: the same scans again at once');
  await send('counts', { method: 'GET', url: api(checkInCountsPath(subject.eventId, subject.day)) });
  // The counts of a check-in list too (docs/decisions/100, 101): the event's first list.
  const lists = CheckInLists.parse((await app.inject({ method: 'GET', url: api(checkInListsPath(subject.eventId)), headers })).json());
  await send('counts at a list', { method: 'GET', url: `${api(checkInCountsPath(subject.eventId, subject.day))}?checkInListId=${lists.lists[0]?.id ?? ''}` });
  const search = new URLSearchParams({ q: subject.searchText, day: String(subject.day) });
  await send('attendee search', { method: 'GET', url: `${api(supervisorPaths.attendeeSearch(subject.eventId))}?${search}` });
  // The live door's figures (docs/decisions/117), as a supervisor's page asks every 2 s.
  await send('live door', { method: 'GET', url: api(liveDoorPaths.live(subject.eventId, subject.day)) });
  const full = await send('door list: full', { method: 'GET', url: api(offlinePaths.doorList(subject.eventId, subject.day)) });
  const { cursor } = DoorList.parse(full.json());
  await send('door list: since cursor', { method: 'GET', url: `${api(offlinePaths.doorList(subject.eventId, subject.day))}?since=${cursor}` });
}

/** The statements worth a plan: reads and writes, each distinct SQL text once (its first use). */
export function distinctStatements(statements: CapturedStatement[]): CapturedStatement[] {
  const seen = new Set<string>();
  return statements.filter((statement) => {
    if (!/^\s*(select|insert|update|delete|with)\b/i.test(statement.sql) || seen.has(statement.sql)) return false;
    seen.add(statement.sql);
    return true;
  });
}

/** A plan node's scan of a table: the node type (`Seq Scan`, `Index Scan`, `Bitmap Index Scan` ...), the table and the index. */
export interface PlanScan {
  node: string;
  relation?: string;
  index?: string;
  /** With ANALYZE: how many times the node ran (a scan inside a correlated subquery runs once per outer row). */
  loops?: number;
}

/** The summary of one statement's plan. */
export interface PlanSummary {
  label: string;
  sql: string;
  /** Every node that reads a table or an index, in plan order. */
  scans: PlanScan[];
  /** Tables read by a sequential scan. */
  seqScannedTables: string[];
  /** The planner's row estimate for the whole statement. */
  estimatedRows: number;
  /** With ANALYZE: rows the statement returned, and its execution time (ms). */
  actualRows?: number;
  executionMs?: number;
  /**
   * The plan as an indented tree, a line per node: its type, table and index, the index condition
   * and filter, estimated rows and (with ANALYZE) actual rows × loops and time (ms).
   */
  tree: string[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Plan Rows'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Actual Total Time'?: number;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

/**
 * EXPLAINs `statement` (with its captured parameters; `replace` swaps parameter values first, e.g.
 * a small event's id for a large one's) in a transaction that is rolled back.
 * `analyze`: EXPLAIN ANALYZE (runs the statement). `disableSeqScan`: `SET LOCAL enable_seqscan =
 * off`, so a sequential scan remains only where no index can serve the statement.
 */
export async function explainStatement(
  db: Db,
  statement: CapturedStatement,
  options: { analyze: boolean; disableSeqScan?: boolean; replace?: ReadonlyMap<unknown, unknown> },
): Promise<PlanSummary> {
  const params = statement.params.map((value) => (options.replace?.has(value) ? options.replace.get(value) : value));
  const query = withParams(statement.sql, params);
  let output: unknown;
  try {
    await db.transaction(async (tx) => {
      if (options.disableSeqScan) await tx.execute(sql`set local enable_seqscan = off`);
      output = await tx.execute(sql`explain (analyze ${sql.raw(options.analyze ? 'true' : 'false')}, format json) ${query}`);
      tx.rollback();
    });
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
  }
  const rows = (output as { rows?: Array<Record<string, unknown>> }).rows ?? [];
  const cell = rows[0] ? Object.values(rows[0])[0] : undefined;
  const parsed = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan: PlanNode; 'Execution Time'?: number }>;
  const top = parsed[0];
  if (!top) throw new Error(`no plan for ${statement.sql}`);
  const scans: PlanScan[] = [];
  const tree: string[] = [];
  const describe = (node: PlanNode, depth: number) => {
    const target = [node['Relation Name'] ? ` on ${node['Relation Name']}` : '', node['Index Name'] ? ` using ${node['Index Name']}` : ''].join('');
    const conditions = (['Index Cond', 'Recheck Cond', 'Filter'] as const).flatMap((key) => (node[key] ? [`${key}: ${node[key]}`] : []));
    const actual = node['Actual Rows'] === undefined ? '' : `, actual ${node['Actual Rows']} × ${node['Actual Loops'] ?? 1} loops, ${node['Actual Total Time'] ?? 0} ms`;
    tree.push(`${'  '.repeat(depth)}-> ${node['Node Type']}${target} (est. ${node['Plan Rows'] ?? 0} rows${actual})${conditions.length > 0 ? ` [${conditions.join('; ')}]` : ''}`);
    node.Plans?.forEach((child) => describe(child, depth + 1));
  };
  describe(top.Plan, 0);
  const walk = (node: PlanNode) => {
    if (/Scan/.test(node['Node Type']) && (node['Relation Name'] || node['Index Name'])) {
      scans.push({
        node: node['Node Type'],
        ...(node['Relation Name'] ? { relation: node['Relation Name'] } : {}),
        ...(node['Index Name'] ? { index: node['Index Name'] } : {}),
        ...(node['Actual Loops'] !== undefined ? { loops: node['Actual Loops'] } : {}),
      });
    }
    node.Plans?.forEach(walk);
  };
  walk(top.Plan);
  return {
    label: statement.label,
    sql: statement.sql,
    scans,
    tree,
    seqScannedTables: scans.filter((scan) => scan.node === 'Seq Scan' && scan.relation).map((scan) => scan.relation ?? ''),
    estimatedRows: top.Plan['Plan Rows'] ?? 0,
    ...(options.analyze ? { actualRows: top.Plan['Actual Rows'] ?? 0, executionMs: top['Execution Time'] ?? 0 } : {}),
  };
}

/** `text` with its `$n` placeholders bound to `params` again, as one Drizzle SQL. */
function withParams(text: string, params: unknown[]): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)));
    // One parameter per $n, arrays too (a bare array in sql`` would become a list of parameters).
    chunks.push(sql`${sql.param(params[Number(match[1]) - 1])}`);
    last = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}

/** One line per scan: `Index Scan tickets(tickets_code_upper_key)`, `Seq Scan check_ins`. */
export function describeScans(scans: PlanScan[]): string {
  if (scans.length === 0) return '(no table read)';
  return scans.map((scan) => `${scan.node} ${scan.relation ?? ''}${scan.index ? `(${scan.index})` : ''}`.trim()).join('; ');
}

/** The SQL in one line, cut to `max` characters, for a table. */
export function shortSql(text: string, max = 90): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
