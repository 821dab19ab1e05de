/**
 * The management area's ticket types and tickets (issue 30 item 3; docs/decisions/114), every route
 * for admins of the event's organization only: staff, supervisors and door devices get 403
 * `forbidden`, non-members 404 `not_found` (docs/decisions/086), the signed-out 401.
 *
 * Ticket types: GET/POST …/ticket-types (list / create), POST …/ticket-types/{name} (note,
 * attention flag, days and a new name; docs/decisions/125), POST …/ticket-types/{name}/delete (409 while tickets, check-ins or a list use it).
 * Tickets: GET …/tickets?q= (by name or code), POST …/tickets/{id} (holder and type), …/revoke,
 * …/reinstate, GET …/tickets/{id}/qr.png and …/tickets.pdf (the CLI's exporter; `?signed=true`: the
 * signed QR texts of `tickets export-qr --signed`, docs/decisions/135; the PDF is drawn in a worker
 * thread, one at a time per server, a 409 when too many wait: docs/decisions/142).
 * CSV upload (body `text/csv`, the file's bytes): POST …/ticket-imports/preview answers what the
 * import would do; POST …/ticket-imports imports, answering `application/x-ndjson` lines of progress
 * as batches commit, then the summary (`TicketImportEvent`); a file refused whole is a 400 before
 * anything is imported. Thin: the rules are the services', shared with the admin CLI.
 */
import { PassThrough } from 'node:stream';
import {
  CreateTicketTypeRequest,
  EditTicketRequest,
  EditTicketTypeRequest,
  EventParams,
  IMPORT_REJECTED_ROWS_SHOWN,
  ManagedTicket,
  ManagedTicketList,
  ManagedTicketParams,
  ManagedTicketQuery,
  ManagedTicketTypeParams,
  manageTicketRoutes as routes,
  TICKET_CSV_UPLOAD_MAX_BYTES,
  TicketImportEvent,
  TicketImportSummary,
  TicketQrQuery,
  TicketType,
  TicketTypesResponse,
} from '@gatecheck/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { ServiceError } from '../../services/errors.ts';
import { findPrintableTicket, listPrintableTickets, type PrintableTicket, ticketQrPng, withSignedQrTexts } from '../../services/qr-export.ts';
import { createTicketsPdfPool } from '../../services/tickets-pdf-pool.ts';
import { openSigningKeyVault, SigningKeySecretMissing, type SigningKeyVault } from '../../services/signing-key-vault.ts';
import { createTicketType, deleteTicketType, editTicketType, listTicketTypes } from '../../services/ticket-types.ts';
import { searchManagedTickets, setTicketRevoked, updateTicket } from '../../services/tickets.ts';
import { BESIDE_DOORS_BATCH_SIZE, importTicketsCsv, inspectTicketsCsv, previewTicketsCsv, type TicketImportSummary as ImportOutcome } from '../../services/tickets-import.ts';
import { eventOf, requireRole } from '../require-role.ts';
import { actorOf, namingBodyFields } from '../management-changes.ts';

/** The uploaded CSV's bytes. @throws ServiceError `bad_request` when the body is not a `text/csv` file. */
function csvOf(request: FastifyRequest): Buffer {
  if (!Buffer.isBuffer(request.body)) throw new ServiceError('bad_request', 'Send the CSV file as the body, with Content-Type: text/csv');
  return request.body;
}

/** The service's import summary as the wire carries it (rejected rows capped). */
function summaryOf(outcome: ImportOutcome): TicketImportSummary {
  return {
    rows: outcome.rows,
    imported: outcome.imported,
    generatedCodes: outcome.generatedCodes,
    rejected: outcome.rejected.slice(0, IMPORT_REJECTED_ROWS_SHOWN),
    rejectedCount: outcome.rejected.length,
    offlineOnlyCount: outcome.offlineOnly.count,
  };
}

/**
 * `reply` for a file or stream answer: the routes' typed replies accept only their JSON schemas, and
 * a binary or streamed body is sent as it is (not serialized, not in the OpenAPI answer checks).
 */
function fileReply(reply: FastifyReply): FastifyReply {
  return reply;
}

/** The answers that are files, as the OpenAPI document declares them (their bytes are not JSON). */
const PNG_BODY = { description: "The ticket's QR code as a PNG image (an attachment).", content: { 'image/png': { schema: z.string().meta({ format: 'binary' }) } } };
const PDF_BODY = { description: "Every ticket's QR code with its holder and type, as a PDF (an attachment), drawn as it is sent.", content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } } };
/** NDJSON: each line of the answer is one `TicketImportEvent` (the schema is a line's). */
const IMPORT_LINES_BODY = {
  description: 'application/x-ndjson, one TicketImportEvent JSON object per line as the batches commit: progress lines, then done (the summary) or error.',
  content: { 'application/x-ndjson': { schema: TicketImportEvent } },
};

/** A safe file name part from an event title ('Dockside Jazz' → 'Dockside-Jazz'). */
function fileNamePart(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'tickets';
}

const manageTicketRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = requireRole('admin');

  // The upload's bytes as they came (the import reads and checks them itself, as the CLI's file).
  app.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: TICKET_CSV_UPLOAD_MAX_BYTES }, (_request, body, done) => done(null, body));

  app.get(
    routes.ticketTypes,
    { preHandler: admin, schema: { operationId: 'listManagedTicketTypes', params: EventParams, response: { 200: TicketTypesResponse, ...ruleErrors('forbidden', 'not_found') } } },
    async (request) => ({ ticketTypes: await listTicketTypes(app.db, eventOf(request).id) }),
  );

  app.post(
    routes.ticketTypes,
    {
      preHandler: admin,
      schema: {
        operationId: 'createTicketType',
        params: EventParams,
        body: CreateTicketTypeRequest,
        response: { 201: TicketType, ...ruleErrors('forbidden', 'not_found', 'conflict') },
      },
    },
    async (request, reply) => {
      const type = await namingBodyFields(() => createTicketType(app.db, eventOf(request).id, request.body, actorOf(request)));
      return reply.status(201).send(type);
    },
  );

  app.post(
    routes.ticketType,
    {
      preHandler: admin,
      schema: {
        operationId: 'editTicketType',
        params: ManagedTicketTypeParams,
        body: EditTicketTypeRequest,
        response: { 200: TicketType, ...ruleErrors('bad_request', 'forbidden', 'not_found', 'conflict') },
      },
    },
    async (request) =>
      namingBodyFields(() => editTicketType(app.db, { eventId: eventOf(request).id, name: request.params.name, edit: request.body }, actorOf(request))),
  );

  app.post(
    routes.deleteTicketType,
    {
      preHandler: admin,
      schema: { operationId: 'deleteTicketType', params: ManagedTicketTypeParams, response: { 200: TicketTypesResponse, ...ruleErrors('forbidden', 'not_found', 'conflict') } },
    },
    async (request) => {
      const event = eventOf(request);
      await deleteTicketType(app.db, event.id, request.params.name, actorOf(request));
      return { ticketTypes: await listTicketTypes(app.db, event.id) };
    },
  );

  app.get(
    routes.tickets,
    {
      preHandler: admin,
      schema: { operationId: 'searchManagedTickets', params: EventParams, querystring: ManagedTicketQuery, response: { 200: ManagedTicketList, ...ruleErrors('forbidden', 'not_found') } },
    },
    async (request) => searchManagedTickets(app.db, eventOf(request).id, request.query.q),
  );

  app.post(
    routes.ticket,
    {
      preHandler: admin,
      schema: { operationId: 'editTicket', params: ManagedTicketParams, body: EditTicketRequest, response: { 200: ManagedTicket, ...ruleErrors('forbidden', 'not_found') } },
    },
    async (request) => namingBodyFields(() => updateTicket(app.db, { eventId: eventOf(request).id, ticketId: request.params.ticketId }, request.body, actorOf(request))),
  );

  for (const [route, isRevoked] of [
    [routes.revokeTicket, true],
    [routes.reinstateTicket, false],
  ] as const) {
    app.post(
      route,
      {
        preHandler: admin,
        schema: { operationId: isRevoked ? 'revokeManagedTicket' : 'reinstateTicket', params: ManagedTicketParams, response: { 200: ManagedTicket, ...ruleErrors('forbidden', 'not_found') } },
      },
      async (request) => setTicketRevoked(app.db, { eventId: eventOf(request).id, ticketId: request.params.ticketId }, { isRevoked, actor: actorOf(request) }),
    );
  }

  // Tickets PDFs are drawn in a worker thread, one at a time (docs/decisions/142).
  const pdfs = createTicketsPdfPool();
  app.addHook('onClose', async () => pdfs.close());

  /** The vault of the server's signing secret, opened on the first signed download. */
  let vault: Promise<SigningKeyVault> | undefined;
  /**
   * `list` as its QR codes print: plain, or with the signed texts of `tickets export-qr --signed`
   * (the same service). No signing secret (PostgreSQL without SIGNING_KEY_SECRET) is a 409 on `signed`.
   */
  const asPrinted = async (eventId: string, list: PrintableTicket[], query: TicketQrQuery): Promise<PrintableTicket[]> => {
    if (query.signed !== 'true') return list;
    vault ??= openSigningKeyVault(app.config);
    return withSignedQrTexts(app.db, await vault, eventId, list).catch((error: unknown) => {
      if (error instanceof SigningKeySecretMissing) throw new ServiceError('conflict', `Signed QR codes cannot be made on this server: ${error.message} Plain codes work without it.`, 'signed');
      throw error;
    });
  };

  app.get(
    routes.ticketQr,
    {
      preHandler: admin,
      schema: { operationId: 'getTicketQr', params: ManagedTicketParams, querystring: TicketQrQuery, response: { 200: PNG_BODY, ...ruleErrors('forbidden', 'not_found', 'conflict') } },
    },
    async (request, reply) => {
      const eventId = eventOf(request).id;
      const [ticket] = await asPrinted(eventId, [await findPrintableTicket(app.db, eventId, request.params.ticketId)], request.query);
      if (!ticket) throw new Error('no ticket to print');
      const png = await ticketQrPng(ticket);
      return fileReply(reply)
        .type('image/png')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${fileNamePart(ticket.code)}.png"`)
        .send(png);
    },
  );

  app.get(
    routes.ticketsPdf,
    {
      // A HEAD would draw the whole PDF only to drop it, holding the worker and a place in the queue.
      exposeHeadRoute: false,
      preHandler: admin,
      schema: { operationId: 'getTicketsPdf', params: EventParams, querystring: TicketQrQuery, response: { 200: PDF_BODY, ...ruleErrors('forbidden', 'not_found', 'conflict') } },
    },
    async (request, reply) => {
      const output = await pdfs.draw(async () => {
        const printable = await listPrintableTickets(app.db, eventOf(request).id);
        const { title, date, location, days } = printable.event;
        return { event: { title, date, location, days }, tickets: await asPrinted(printable.event.id, printable.tickets, request.query) };
      });
      // Drawn in the worker thread as it is sent: never whole in memory, never in the doors' way.
      // A failure mid-way ends the download short; a download abandoned mid-way stops the drawing.
      output.on('error', (error) => request.log.error({ err: error }, 'tickets PDF failed'));
      return fileReply(reply)
        .type('application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${fileNamePart(eventOf(request).title)}-tickets.pdf"`)
        .send(output);
    },
  );

  app.post(
    routes.importPreview,
    {
      preHandler: admin,
      bodyLimit: TICKET_CSV_UPLOAD_MAX_BYTES,
      schema: { operationId: 'previewTicketImport', params: EventParams, response: { 200: TicketImportSummary, ...ruleErrors('bad_request', 'forbidden', 'not_found') } },
    },
    async (request) => summaryOf(await previewTicketsCsv(app.db, { eventId: eventOf(request).id, csv: csvOf(request) })),
  );

  app.post(
    routes.importTickets,
    {
      preHandler: admin,
      bodyLimit: TICKET_CSV_UPLOAD_MAX_BYTES,
      schema: { operationId: 'importTickets', params: EventParams, response: { 200: IMPORT_LINES_BODY, ...ruleErrors('bad_request', 'forbidden', 'not_found') } },
    },
    async (request, reply) => {
      const eventId = eventOf(request).id;
      const csv = csvOf(request);
      // A file refused whole is an ordinary 400, before any line is sent or any ticket written.
      const inspected = await inspectTicketsCsv(app.db, { eventId, csv });
      const output = new PassThrough();
      const send = (line: TicketImportEvent) => output.write(`${JSON.stringify(line)}\n`);
      const actor = actorOf(request);
      // Batches of 100 in their own transactions (the CLI's are 500), each followed by a pause as
      // long as it took: the doors' verify keeps about half of the process and waits at most for
      // one short batch (decisions 114, 136).
      importTicketsCsv(app.db, { eventId, csv, inspected, actor, batchSize: BESIDE_DOORS_BATCH_SIZE, pauseFactor: 1, onProgress: ({ rows, bytes }) => send({ type: 'progress', rows, bytes }) })
        .then((outcome) => send({ type: 'done', summary: summaryOf(outcome) }))
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'ticket import failed');
          send(
            error instanceof ServiceError
              ? { type: 'error', code: error.code, message: error.message }
              : { type: 'error', code: 'internal_error', message: 'The import stopped. Tickets of the batches already done are imported; upload the file again to add the rest.' },
          );
        })
        .finally(() => output.end());
      return fileReply(reply).type('application/x-ndjson').header('cache-control', 'no-store').send(output);
    },
  );
};

export default manageTicketRoutes;
