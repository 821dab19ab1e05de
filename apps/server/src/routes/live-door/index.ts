/**
 * The live door and its exports (docs/decisions/117), every route behind `requireRole('supervisor')`
 * (staff 403, non-members 404, door devices 403 as for every route off their allowlist, decision 107):
 * GET /events/{eventId}/days/{day}/live (the figures, JSON), GET …/days/{day}/arrivals.csv (arrivals
 * per list and 5-minute slot) and GET /events/{eventId}/scan-log.csv?day= (the scan log, oldest
 * first, the columns of the CLI's `scanlog export`). CSV through services/csv-files.ts (formulas
 * escaped, decision 086), sent as attachments.
 */
import { ARRIVALS_CSV_COLUMNS, CheckInCountsParams, EventParams, LiveDoor, liveDoorRoutes, ScanLogCsvQuery } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { csvText } from '../../services/csv-files.ts';
import { arrivalsCsvRows, readLiveDoor } from '../../services/live-door.ts';
import { allScanLogEntries, SCAN_LOG_CSV_COLUMNS, scanLogCsvRow } from '../../services/scan-log.ts';
import { eventOf, requireRole } from '../require-role.ts';

/** A file name part from an event title: letters, digits and dashes only (a header value stays plain ASCII). */
function fileNamePart(title: string): string {
  const part = title.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return part === '' ? 'event' : part.toLowerCase();
}

/** A CSV answer as the OpenAPI document declares it: text/csv (RFC 4180), a header row first. */
const CSV_BODY = { description: 'CSV (RFC 4180), a header row first', content: { 'text/csv': { schema: z.string() } } };

/**
 * Reads shared between the watchers of one event day on this instance (docs/decisions/117): a read
 * started less than `shareMs` ago (finished or still running) answers the next ask too, so 50
 * supervisors polling every 2 s cost the database about one read a second, not 25. Every instance
 * reads the database itself, so a scan anywhere shows within the poll interval plus `shareMs`.
 */
function sharedReads(shareMs: number) {
  const recent = new Map<string, { startedAt: number; figures: Promise<LiveDoor> }>();
  return (key: string, now: number, read: () => Promise<LiveDoor>): Promise<LiveDoor> => {
    const found = recent.get(key);
    if (found && now - found.startedAt < shareMs) return found.figures;
    // Forget what no watcher can use any more (a map of the event days watched in the last seconds).
    for (const [oldKey, entry] of recent) if (now - entry.startedAt >= shareMs) recent.delete(oldKey);
    const figures = read();
    if (shareMs > 0) {
      recent.set(key, { startedAt: now, figures });
      // A failed read is not shared: the next ask tries again.
      figures.catch(() => recent.delete(key));
    }
    return figures;
  };
}

const liveDoorRoutePlugin: FastifyPluginAsyncZod = async (app) => {
  const supervisorOnly = requireRole('supervisor');
  const shared = sharedReads(app.config.liveDoorShareMs);

  app.get(
    liveDoorRoutes.live,
    {
      preHandler: supervisorOnly,
      schema: {
        operationId: 'getLiveDoor',
        params: CheckInCountsParams,
        response: { 200: LiveDoor, ...ruleErrors('forbidden', 'not_found') },
      },
    },
    async (request, reply) => {
      // No cache but this instance's short sharing may hold a scan back from a watcher.
      void reply.header('cache-control', 'no-store');
      const event = eventOf(request);
      const now = app.clock();
      return shared(`${event.id}/${request.params.day}`, now.getTime(), () => readLiveDoor(app.db, event, request.params.day, now));
    },
  );

  app.get(
    liveDoorRoutes.arrivalsCsv,
    {
      preHandler: supervisorOnly,
      schema: {
        operationId: 'exportArrivalsCsv',
        description: 'text/csv: columns check_in_list, slot_start, slot_end, arrivals (every 5-minute slot from the first arrival to the last, per list).',
        params: CheckInCountsParams,
        response: { 200: CSV_BODY, ...ruleErrors('forbidden', 'not_found') },
      },
    },
    async (request, reply) => {
      const event = eventOf(request);
      const live = await readLiveDoor(app.db, event, request.params.day, app.clock());
      const name = `${fileNamePart(event.title)}-day-${request.params.day}-arrivals.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(csvText(ARRIVALS_CSV_COLUMNS, arrivalsCsvRows(live)));
    },
  );

  app.get(
    liveDoorRoutes.scanLogCsv,
    {
      preHandler: supervisorOnly,
      schema: {
        operationId: 'exportScanLogCsv',
        description: `text/csv, oldest first: columns ${SCAN_LOG_CSV_COLUMNS.join(', ')}.`,
        params: EventParams,
        querystring: ScanLogCsvQuery,
        response: { 200: CSV_BODY, ...ruleErrors('forbidden', 'not_found') },
      },
    },
    async (request, reply) => {
      const event = eventOf(request);
      const { day } = request.query;
      const name = `${fileNamePart(event.title)}${day === undefined ? '' : `-day-${day}`}-scan-log.csv`;
      // Read in keyset pages (allScanLogEntries), as the CLI's export; one day's log is a few MB of text.
      const rows: string[][] = [];
      for await (const entry of allScanLogEntries(app.db, event.id, { day })) rows.push(scanLogCsvRow(entry));
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(csvText(SCAN_LOG_CSV_COLUMNS, rows));
    },
  );
};

export default liveDoorRoutePlugin;
