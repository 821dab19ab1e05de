/**
 * The organizer's management of an event's ticket types and tickets (issue 30 item 3;
 * docs/decisions/114): what an admin sends to create, change or delete a ticket type, to find,
 * change, revoke and reinstate a ticket, and what a CSV upload's preview and import answer. One
 * schema validates the browser's form, the API request and (through the services) the admin CLI.
 *
 * Paths: `manageTicketPaths`. Every call needs the `admin` role in the event's organization: 403
 * `forbidden` for staff, supervisors and door devices, 404 `not_found` for everyone else
 * (docs/decisions/086). Writes are POST (the API's CORS allows GET and POST only).
 */
import { z } from 'zod';
import { checkInNoteText, TicketTypeDays } from './check-in-notes.ts';
import { requestText } from './text.ts';

/** Longest ticket type name, in characters (as the CSV import takes it). */
export const TICKET_TYPE_NAME_LENGTH_MAX = 100;
/** Longest holder name, in characters (as the CSV import takes it). */
export const HOLDER_NAME_LENGTH_MAX = 200;
/** Most tickets one search answers. */
export const MANAGED_TICKET_SEARCH_LIMIT = 50;
/** Most rejected rows a preview or an import names one by one (the rest are counted). */
export const IMPORT_REJECTED_ROWS_SHOWN = 500;
/** Largest CSV upload the management area takes, in bytes (a 100,000-row file is about 6 MB). */
export const TICKET_CSV_UPLOAD_MAX_BYTES = 64 * 1024 * 1024;

/** A ticket type's name as typed: white space runs folded, 1 to 100 characters. */
const TicketTypeName = requestText()
  .overwrite((text) => text.trim().replace(/\s+/g, ' '))
  .min(1, 'Give the ticket type a name')
  .max(TICKET_TYPE_NAME_LENGTH_MAX, `Use at most ${TICKET_TYPE_NAME_LENGTH_MAX} characters`);

/**
 * A new ticket type of an event: its name (as tickets will carry it), check-in note, attention flag
 * and the days it admits (null or absent: every day; docs/decisions/125).
 */
export const CreateTicketTypeRequest = z
  .object({ name: TicketTypeName, checkInNote: checkInNoteText(), requiresAttention: z.boolean(), days: TicketTypeDays.default(null) })
  .meta({ id: 'CreateTicketTypeRequest' });
export type CreateTicketTypeRequest = z.infer<typeof CreateTicketTypeRequest>;
export type CreateTicketTypeDraft = z.input<typeof CreateTicketTypeRequest>;

/**
 * A ticket type as the form saves it: its check-in note and attention flag, and optionally a new
 * name (its tickets and the check-in lists that name it follow) and its days (null: every day); a
 * field left out keeps its value (docs/decisions/125).
 */
export const EditTicketTypeRequest = z
  .object({ name: TicketTypeName.optional(), checkInNote: checkInNoteText(), requiresAttention: z.boolean(), days: TicketTypeDays.optional() })
  .meta({ id: 'EditTicketTypeRequest' });
export type EditTicketTypeRequest = z.infer<typeof EditTicketTypeRequest>;
export type EditTicketTypeDraft = z.input<typeof EditTicketTypeRequest>;

/** A ticket's holder and type as an admin changes them. */
export const EditTicketRequest = z
  .object({
    holderName: requestText()
      .overwrite((text) => text.trim().replace(/\s+/g, ' '))
      .min(1, 'Give the holder a name')
      .max(HOLDER_NAME_LENGTH_MAX, `Use at most ${HOLDER_NAME_LENGTH_MAX} characters`),
    ticketType: TicketTypeName,
  })
  .meta({ id: 'EditTicketRequest' });
export type EditTicketRequest = z.infer<typeof EditTicketRequest>;
export type EditTicketDraft = z.input<typeof EditTicketRequest>;

/** Path params of one ticket type in the management area (`name` URL-encoded). */
export const ManagedTicketTypeParams = z.object({
  eventId: requestText().min(1).max(64),
  name: requestText().trim().min(1).max(TICKET_TYPE_NAME_LENGTH_MAX),
});

/** Path params of one ticket in the management area. */
export const ManagedTicketParams = z.object({
  eventId: requestText().min(1).max(64),
  ticketId: requestText().min(1).max(64),
});

/** GET …/tickets?q=: holder names with a word starting with `q`, or codes starting with it (case and accents ignored); empty: the first tickets by name. */
export const ManagedTicketQuery = z.object({ q: requestText().trim().max(200).default('') });

/**
 * GET …/tickets/{id}/qr.png and …/tickets.pdf: `signed=true` prints each ticket's signed QR text
 * (`GC1.…`, Ed25519 with the event's key, docs/decisions/043 and 135), which a phone checks offline
 * for forgery; absent or `false`, the plain code.
 */
export const TicketQrQuery = z.object({ signed: z.enum(['true', 'false']).optional() });
export type TicketQrQuery = z.infer<typeof TicketQrQuery>;

/** A ticket as the management area shows it. */
export const ManagedTicket = z
  .object({
    id: z.string(),
    code: z.string(),
    holderName: z.string(),
    ticketType: z.string(),
    /** Day numbers it admits; null = every day of the event. */
    days: z.array(z.number().int()).nullable(),
    /** ISO 8601 instant it was revoked, or null. */
    revokedAt: z.string().nullable(),
    /** Active (not undone) check-ins of the ticket, over every day and list. */
    checkIns: z.number().int(),
  })
  .meta({ id: 'ManagedTicket' });
export type ManagedTicket = z.infer<typeof ManagedTicket>;

/** A search's answer: at most MANAGED_TICKET_SEARCH_LIMIT tickets, by holder name; `hasMore` when more match. */
export const ManagedTicketList = z.object({ tickets: z.array(ManagedTicket), hasMore: z.boolean() }).meta({ id: 'ManagedTicketList' });
export type ManagedTicketList = z.infer<typeof ManagedTicketList>;

/** A row of a CSV that is not (or would not be) imported: its line in the file (1 = header), its code when it had one, and why. */
export const RejectedTicketRow = z.object({ line: z.number().int(), code: z.string().optional(), reason: z.string() });
export type RejectedTicketRow = z.infer<typeof RejectedTicketRow>;

/**
 * What a CSV upload would do (preview) or did (import): rows read, tickets (to be) imported, how
 * many of them get a generated code, the rejected rows by line (the first IMPORT_REJECTED_ROWS_SHOWN;
 * `rejectedCount` of them all), and how many codes are too weak for a door list.
 */
export const TicketImportSummary = z
  .object({
    rows: z.number().int(),
    imported: z.number().int(),
    generatedCodes: z.number().int(),
    rejected: z.array(RejectedTicketRow),
    rejectedCount: z.number().int(),
    offlineOnlyCount: z.number().int(),
  })
  .meta({ id: 'TicketImportSummary' });
export type TicketImportSummary = z.infer<typeof TicketImportSummary>;

/**
 * One line of an import's answer (`application/x-ndjson`, one JSON object a line, sent as the
 * batches commit): progress (data rows handled and bytes of the file parsed so far), then the
 * summary, or an error after which the batches already committed stay imported.
 */
export const TicketImportEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), rows: z.number().int(), bytes: z.number().int() }),
  z.object({ type: z.literal('done'), summary: TicketImportSummary }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
]).meta({ id: 'TicketImportEvent' });
export type TicketImportEvent = z.infer<typeof TicketImportEvent>;

/** A ticket type as an audit entry records it; `days` absent in entries written before types had days. */
export const TicketTypeSnapshot = z
  .object({ name: z.string(), checkInNote: z.string(), requiresAttention: z.boolean(), days: z.array(z.number().int()).nullable().optional() })
  .meta({ id: 'TicketTypeSnapshot' });
export type TicketTypeSnapshot = z.infer<typeof TicketTypeSnapshot>;

/** A ticket as an audit entry records it. */
export const TicketSnapshot = z
  .object({
    code: z.string(),
    holderName: z.string(),
    ticketType: z.string(),
    revokedAt: z.string().nullable(),
    /** The ticket's own check-in note and attention flag (docs/decisions/102); absent in entries written before they were recorded. */
    checkInNote: z.string().optional(),
    requiresAttention: z.boolean().optional(),
  })
  .meta({ id: 'TicketSnapshot' });
export type TicketSnapshot = z.infer<typeof TicketSnapshot>;

/** One committed batch of a CSV import as an audit entry records it: the file's lines it covered and the tickets it added. */
export const TicketImportBatchSnapshot = z
  .object({ firstLine: z.number().int(), lastLine: z.number().int(), imported: z.number().int() })
  .meta({ id: 'TicketImportBatchSnapshot' });
export type TicketImportBatchSnapshot = z.infer<typeof TicketImportBatchSnapshot>;

/**
 * A CSV import as its one audit entry records it (docs/decisions/126): data rows read, tickets
 * added, rows skipped because their code was taken (by a ticket or an earlier row), rows rejected
 * by the row checks, and whether the import ran to its end (false while it runs, or when it stopped
 * part way: the batches committed by then stay imported and are counted here).
 */
export const TicketImportSnapshot = z
  .object({ rows: z.number().int(), added: z.number().int(), skipped: z.number().int(), rejected: z.number().int(), isFinished: z.boolean() })
  .meta({ id: 'TicketImportSnapshot' });
export type TicketImportSnapshot = z.infer<typeof TicketImportSnapshot>;

/** The management area's ticket calls (Fastify route patterns; build concrete paths with `manageTicketPaths`). */
export const manageTicketRoutes = {
  ticketTypes: '/manage/events/:eventId/ticket-types',
  ticketType: '/manage/events/:eventId/ticket-types/:name',
  deleteTicketType: '/manage/events/:eventId/ticket-types/:name/delete',
  tickets: '/manage/events/:eventId/tickets',
  ticket: '/manage/events/:eventId/tickets/:ticketId',
  revokeTicket: '/manage/events/:eventId/tickets/:ticketId/revoke',
  reinstateTicket: '/manage/events/:eventId/tickets/:ticketId/reinstate',
  ticketQr: '/manage/events/:eventId/tickets/:ticketId/qr.png',
  ticketsPdf: '/manage/events/:eventId/tickets.pdf',
  importPreview: '/manage/events/:eventId/ticket-imports/preview',
  importTickets: '/manage/events/:eventId/ticket-imports',
} as const;

const eventPart = (eventId: string) => `/manage/events/${encodeURIComponent(eventId)}`;

/** The concrete paths of the management area's ticket calls. */
export const manageTicketPaths = {
  ticketTypes: (eventId: string) => `${eventPart(eventId)}/ticket-types`,
  ticketType: (eventId: string, name: string) => `${eventPart(eventId)}/ticket-types/${encodeURIComponent(name)}`,
  deleteTicketType: (eventId: string, name: string) => `${eventPart(eventId)}/ticket-types/${encodeURIComponent(name)}/delete`,
  tickets: (eventId: string, query = '') => `${eventPart(eventId)}/tickets${query ? `?q=${encodeURIComponent(query)}` : ''}`,
  ticket: (eventId: string, ticketId: string) => `${eventPart(eventId)}/tickets/${encodeURIComponent(ticketId)}`,
  revokeTicket: (eventId: string, ticketId: string) => `${eventPart(eventId)}/tickets/${encodeURIComponent(ticketId)}/revoke`,
  reinstateTicket: (eventId: string, ticketId: string) => `${eventPart(eventId)}/tickets/${encodeURIComponent(ticketId)}/reinstate`,
  ticketQr: (eventId: string, ticketId: string, qr: { signed?: boolean } = {}) => `${eventPart(eventId)}/tickets/${encodeURIComponent(ticketId)}/qr.png${qr.signed ? '?signed=true' : ''}`,
  ticketsPdf: (eventId: string, qr: { signed?: boolean } = {}) => `${eventPart(eventId)}/tickets.pdf${qr.signed ? '?signed=true' : ''}`,
  importPreview: (eventId: string) => `${eventPart(eventId)}/ticket-imports/preview`,
  importTickets: (eventId: string) => `${eventPart(eventId)}/ticket-imports`,
} as const;
