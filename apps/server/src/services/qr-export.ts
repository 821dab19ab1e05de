/**
 * Exporting an event's tickets for printing (issue 4, admin CLI `tickets export-qr`): one PNG QR
 * code per ticket (`<code>.png`, the same look as the demo seed's) and a printable A4 PDF with a
 * grid of tickets — QR code, holder name, ticket type and days, code, event title — with dashed
 * cutting lines, drawn by services/tickets-pdf.ts (the server draws it in a worker thread,
 * services/tickets-pdf-pool.ts). Revoked tickets are left out.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, asc, eq, isNull } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { DbOrTx } from '../db/client.ts';
import { tickets, ticketTypes } from '../db/schema.ts';
import { isId, ServiceError } from './errors.ts';
import { findEvent, type EventDetails } from './events.ts';
import { renderTicketsPdf, type TicketsPdfContent } from './tickets-pdf.ts';
import { SigningKeySecretMissing, type SigningKeyVault } from './signing-key-vault.ts';
import { activeSigningKey, signerOf, signWith, type TicketSigner } from './signing-keys.ts';
import { ticketDaysOf, ticketTypeDoorColumns, typeOfTicket } from './ticket-type-door.ts';

/** Side of an exported PNG, in px (quiet zone included). */
const QR_PNG_WIDTH_PX = 512;

/**
 * One ticket to print. `days`: the days it admits with its type's (`ticketDaysOf`,
 * docs/decisions/125), as the door decides them; null = every day of the event, [] = no day. They
 * are what a signed text vouches for: a phone deciding a signed ticket without its door-list entry
 * reads only these. `qrText`: the text the QR code carries — a signed ticket's `GC1.` text
 * (docs/decisions/043) — when not the plain code.
 */
export interface PrintableTicket {
  code: string;
  qrText?: string;
  holderName: string;
  ticketType: string;
  days: number[] | null;
}

/** A ticket row read with its type's days (left join: a type without a row admits every day). */
const printableColumns = { code: tickets.code, holderName: tickets.holderName, ticketType: tickets.ticketType, admittedDays: tickets.admittedDays, typeDays: ticketTypeDoorColumns.typeDays };

function printableOf(row: { code: string; holderName: string; ticketType: string; admittedDays: number[] | null; typeDays: number[] | null }): PrintableTicket {
  return { code: row.code, holderName: row.holderName, ticketType: row.ticketType, days: ticketDaysOf(row, row) };
}

/**
 * The event `eventId` and its tickets that are not revoked, by holder name then code, each with the
 * days it admits with its type's.
 * @throws ServiceError `not_found` for an unknown event.
 */
export async function listPrintableTickets(db: DbOrTx, eventId: string): Promise<{ event: EventDetails; tickets: PrintableTicket[] }> {
  const event = await findEvent(db, eventId);
  const rows = await db
    .select(printableColumns)
    .from(tickets)
    .leftJoin(ticketTypes, typeOfTicket)
    .where(and(eq(tickets.eventId, event.id), isNull(tickets.revokedAt)))
    .orderBy(asc(tickets.holderName), asc(tickets.code));
  return { event, tickets: rows.map(printableOf) };
}

/**
 * Ticket `ticketId` of event `eventId` (revoked or not: an admin may print one on purpose) as it
 * prints, with the days it admits with its type's.
 * @throws ServiceError `not_found` when the event has no such ticket.
 */
export async function findPrintableTicket(db: DbOrTx, eventId: string, ticketId: string): Promise<PrintableTicket> {
  const [row] =
    isId(eventId) && isId(ticketId)
      ? await db.select(printableColumns).from(tickets).leftJoin(ticketTypes, typeOfTicket).where(and(eq(tickets.eventId, eventId), eq(tickets.id, ticketId))).limit(1)
      : [];
  if (!row) throw new ServiceError('not_found', 'No such ticket');
  return printableOf(row);
}

/**
 * `list` (tickets of event `eventId`, as `listPrintableTickets` / `findPrintableTicket` read them)
 * with each ticket's signed QR text (`qrText`, docs/decisions/043) under the event's active key,
 * created on first use (not when there is nothing to sign): what `tickets export-qr --signed` and
 * the management area's signed downloads print (docs/decisions/135). The text vouches for the ticket's `days` — the days it admits with its
 * type's — so a phone deciding it from the signature alone denies the days the server denies. A
 * ticket that admits no day (`[]`, which the signed format cannot say) keeps its plain code: there
 * is nothing to vouch for, and the door denies it from its row or door-list entry. Ed25519 is
 * deterministic: the same ticket and key give the same text. The key is parsed once and the
 * tickets signed in slices (`signQrTexts`), so a large print run does not hold up the scans the
 * same server answers.
 * @throws SigningKeySecretMissing when `vault` has no secret (PostgreSQL without SIGNING_KEY_SECRET).
 */
export async function withSignedQrTexts(db: DbOrTx, vault: SigningKeyVault, eventId: string, list: PrintableTicket[]): Promise<PrintableTicket[]> {
  if (!list.some(isSignable)) {
    // Nothing to sign (no tickets, or none that admits a day): no key is made for it, but a
    // server that cannot sign still says so, as it would with tickets.
    if ('missing' in vault) throw new SigningKeySecretMissing(vault.missing);
    return list;
  }
  return signQrTexts(signerOf(await activeSigningKey(db, vault, eventId)), eventId, list);
}

/** Whether a signed text can vouch for `ticket`: it admits some day (the format cannot say none). */
function isSignable(ticket: PrintableTicket): boolean {
  return ticket.days?.length !== 0;
}

/**
 * Most tickets signed between two turns of the event loop, and most time (ms) spent: an Ed25519
 * signature costs some 30–200 µs here (2 shared cores), so a slice stays near 10 ms and a verify
 * waiting behind it keeps its deadline.
 */
const SIGNING_SLICE_TICKETS = 200;
const SIGNING_SLICE_MS = 10;

/**
 * `list` (tickets of event `eventId`) each with its signed QR text under `signer` (see
 * `withSignedQrTexts`; a ticket that admits no day keeps its plain code). Yields to the event loop
 * (setImmediate) after every slice of SIGNING_SLICE_TICKETS tickets or SIGNING_SLICE_MS ms.
 */
export async function signQrTexts(signer: TicketSigner, eventId: string, list: PrintableTicket[]): Promise<PrintableTicket[]> {
  const signed: PrintableTicket[] = [];
  let sliceStart = performance.now();
  for (const [index, ticket] of list.entries()) {
    if (index % SIGNING_SLICE_TICKETS === 0 || performance.now() - sliceStart >= SIGNING_SLICE_MS) {
      if (index > 0) await nextTurn();
      sliceStart = performance.now();
    }
    signed.push(isSignable(ticket) ? { ...ticket, qrText: signWith(signer, { eventId, code: ticket.code, days: ticket.days }) } : ticket);
  }
  return signed;
}

/**
 * The file name of a ticket's PNG: `<code>.png`. Imported codes are file-name safe
 * (services/ticket-codes.ts); anything else (codes made another way) is percent-encoded.
 */
function pngFileNameOf(code: string): string {
  const safe = /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(code) ? code : encodeURIComponent(code).replace(/\./g, '%2E');
  return `${safe}.png`;
}

/**
 * Writes one 512 px `<code>.png` QR code per ticket into `dir` (created if missing), overwriting
 * files of the same name. `onProgress(done, total)` is called after each file.
 * @returns the paths written.
 */
export async function writeTicketPngs(
  dir: string,
  list: PrintableTicket[],
  onProgress?: (done: number, total: number) => void,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const ticket of list) {
    const file = path.join(dir, pngFileNameOf(ticket.code));
    await QRCode.toFile(file, ticket.qrText ?? ticket.code, { errorCorrectionLevel: 'M', margin: 4, width: QR_PNG_WIDTH_PX });
    written.push(file);
    onProgress?.(written.length, list.length);
  }
  return written;
}

// Windows-1252: what PDFKit's built-in (standard 14) fonts can show.
const BUILT_IN_FONT_TEXT = /^[\u0020-\u007e\u00a0-\u00ff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]*$/;

/** How many tickets have a holder name or ticket type the built-in PDF fonts cannot show. */
export function countNeedingUnicodeFont(list: PrintableTicket[]): number {
  return list.filter((ticket) => !BUILT_IN_FONT_TEXT.test(ticket.holderName) || !BUILT_IN_FONT_TEXT.test(ticket.ticketType)).length;
}

/**
 * Writes the printable A4 PDF of `content` (services/tickets-pdf.ts `renderTicketsPdf`: 12 tickets
 * a page with their QR codes, holder, type and days, code and event title) to `file`, creating its
 * folder. `onProgress(done, total)` is called after each ticket.
 * @throws when the file cannot be written or the font cannot be read.
 */
export async function writeTicketsPdf(file: string, content: TicketsPdfContent, onProgress?: (done: number, total: number) => void): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const output = createWriteStream(file);
  await renderTicketsPdf(output, content, onProgress);
  await finished(output);
}

export { renderTicketsPdf, type TicketsPdfContent } from './tickets-pdf.ts';

/** One ticket's QR code as a 512 px PNG, the same image `writeTicketPngs` writes to its file. */
export async function ticketQrPng(ticket: Pick<PrintableTicket, 'code' | 'qrText'>): Promise<Buffer> {
  return QRCode.toBuffer(ticket.qrText ?? ticket.code, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: QR_PNG_WIDTH_PX });
}

