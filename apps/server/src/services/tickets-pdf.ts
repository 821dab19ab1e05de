/**
 * Drawing the printable tickets PDF (the admin CLI's `tickets export-qr --pdf` and the management
 * area's tickets.pdf; services/qr-export.ts reads the tickets): A4 pages of 3 × 4 tickets — QR
 * code, holder name, ticket type and days, code, event title — inside dashed cutting lines.
 *
 * No database and no Fastify here: the server draws it in a worker thread
 * (services/tickets-pdf-pool.ts, docs/decisions/142), which loads only this module and its
 * packages (PDFKit, qrcode).
 *
 * Each QR code is drawn as vector squares (qrcode's `create` gives the modules; PDFKit fills one
 * rectangle per run of dark modules in a row), not as an embedded PNG: making a PNG, deflating it
 * and PDFKit inflating it again to embed it cost most of the 18.6 ms a ticket took (docs/performance.md).
 * The squares print sharp at any size and the file is smaller.
 *
 * The PDF uses PDFKit's built-in Helvetica/Courier, which cover Western European (Windows-1252)
 * characters only; for names in other scripts pass a TrueType/OpenType font file to embed
 * (e.g. Debian's /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf).
 */
import type { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { EventDetails } from './events.ts';
import type { PrintableTicket } from './qr-export.ts';

/** What a tickets PDF shows: the event, its tickets, and optionally a font file for names beyond Windows-1252. */
export interface TicketsPdfContent {
  event: Pick<EventDetails, 'title' | 'date' | 'location' | 'days'>;
  tickets: PrintableTicket[];
  fontFile?: string;
}

// A4 in PostScript points (1/72 inch), 3 × 4 tickets per page.
const PAGE = { width: 595.28, height: 841.89, margin: 28 };
const GRID = { columns: 3, rows: 4 };
const CELL_PADDING = 10;
const QR_SIDE_PT = 118;
/** The quiet zone around each QR code, in modules (the white border a camera needs; the paper is white). */
const QR_MARGIN_MODULES = 2;

/**
 * Draws a printable A4 PDF of `content` into `output`, as pages are drawn: 12 tickets per page
 * (3 × 4), each with its QR code (about 4 cm), holder name, ticket type and days, code and event
 * title, inside dashed cutting lines; every page has a footer with the event and page number.
 * `fontFile` (a .ttf/.otf path) replaces Helvetica for names, types and titles. Ends `output`
 * when the document is done.
 *
 * Never holds more than about a page beyond `output`'s buffer: after each page it waits while
 * `output` asks to drain (a slow download holds the drawing, not the memory), and lets the event
 * loop turn. `onProgress(done, total)` is called after each ticket.
 * @throws when `output` closes before the document is done, or the font file cannot be read.
 */
export async function renderTicketsPdf(output: Writable, content: TicketsPdfContent, onProgress?: (done: number, total: number) => void): Promise<void> {
  const { event, tickets: list } = content;
  const fonts: Fonts = content.fontFile ? { regular: 'custom', bold: 'custom' } : { regular: 'Helvetica', bold: 'Helvetica-Bold' };
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    autoFirstPage: false,
    info: { Title: `Tickets: ${event.title}`, Subject: `${list.length} tickets`, Creator: 'Gatecheck' },
  });
  if (content.fontFile) doc.registerFont('custom', content.fontFile);
  let mustDrain = false;
  doc.on('data', (chunk: Buffer) => {
    if (!output.write(chunk)) mustDrain = true;
  });
  const ended = new Promise<void>((resolve, reject) => {
    doc.once('end', resolve);
    doc.once('error', reject);
  });

  const perPage = GRID.columns * GRID.rows;
  const pageCount = Math.max(1, Math.ceil(list.length / perPage));
  const cells = ticketCells();

  for (let page = 0; page < pageCount; page++) {
    if (page > 0) {
      if (mustDrain) await drained(output);
      mustDrain = false;
      await nextTurn();
    }
    doc.addPage();
    const footer = `${event.title} · ${event.date}${event.location ? ` · ${event.location}` : ''} · page ${page + 1} of ${pageCount}`;
    doc
      .font(fonts.regular)
      .fontSize(7)
      .fillColor('#666666')
      .text(footer, PAGE.margin, PAGE.height - PAGE.margin - 9, { width: PAGE.width - 2 * PAGE.margin, align: 'center', lineBreak: false });
    if (list.length === 0) {
      doc.font(fonts.regular).fontSize(12).fillColor('#000000').text('No tickets to print.', PAGE.margin, PAGE.margin);
    }
    const onPage = list.slice(page * perPage, (page + 1) * perPage);
    for (const [index, ticket] of onPage.entries()) {
      const cell = cells[index];
      if (!cell) throw new Error(`no cell ${index} on a page`);
      drawTicket(doc, cell, { ticket, event, fonts });
      onProgress?.(page * perPage + index + 1, list.length);
    }
  }
  doc.end();
  await ended;
  await new Promise<void>((resolve, reject) => {
    output.end((error?: Error | null) => (error ? reject(error) : resolve()));
  });
}

/**
 * Where the tickets of a page go, in reading order (left to right, top to bottom), in points from
 * the page's top left: 3 × 4 cells inside the margins, above the footer.
 */
export function ticketCells(): Box[] {
  const footerHeight = 16;
  const width = (PAGE.width - 2 * PAGE.margin) / GRID.columns;
  const height = (PAGE.height - 2 * PAGE.margin - footerHeight) / GRID.rows;
  return Array.from({ length: GRID.columns * GRID.rows }, (_, index) => ({
    x: PAGE.margin + (index % GRID.columns) * width,
    y: PAGE.margin + Math.floor(index / GRID.columns) * height,
    width,
    height,
  }));
}

/**
 * Resolves when `output` drains; rejects when it closes first (the download was abandoned), so
 * drawing stops instead of waiting for ever.
 */
function drained(output: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      output.off('drain', onDrain);
      output.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(new Error('the PDF output closed before the document was done'));
    output.on('drain', onDrain);
    output.on('close', onClose);
  });
}

interface Fonts {
  regular: string;
  bold: string;
}

/** A rectangle on a page, in points from its top left. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the QR code's alphanumeric mode can carry (digits, capitals, space and $%*+-./:). */
const QR_ALPHANUMERIC = /^[0-9A-Z $%*+\-./:]*$/;

/**
 * `text` as one QR segment: alphanumeric when it can be (a plain imported code), bytes otherwise
 * (a signed `GC1.` text). Given whole, qrcode would search the cheapest mix of modes for every
 * code (a shortest-path search over its characters), a third of a ticket's drawing time; one
 * segment is at most a version larger for a code that mixes long digit runs into letters.
 */
function segmentOf(text: string): QRCode.QRCodeSegment {
  return QR_ALPHANUMERIC.test(text) ? { data: text, mode: 'alphanumeric' } : { data: Buffer.from(text, 'utf8'), mode: 'byte' };
}

/**
 * `text`'s QR code (error correction M, as the PNGs) as filled squares, `side` points wide
 * including its quiet zone, top left at (`x`, `y`): one rectangle per run of dark modules in a row.
 */
function drawQrCode(doc: PDFKit.PDFDocument, text: string, { x, y, side }: { x: number; y: number; side: number }): void {
  const { modules } = QRCode.create([segmentOf(text)], { errorCorrectionLevel: 'M' });
  const unit = side / (modules.size + 2 * QR_MARGIN_MODULES);
  const left = x + QR_MARGIN_MODULES * unit;
  const top = y + QR_MARGIN_MODULES * unit;
  for (let row = 0; row < modules.size; row++) {
    let runStart = -1;
    for (let column = 0; column <= modules.size; column++) {
      const isDark = column < modules.size && modules.get(row, column);
      if (isDark && runStart < 0) runStart = column;
      else if (!isDark && runStart >= 0) {
        doc.rect(left + runStart * unit, top + row * unit, (column - runStart) * unit, unit);
        runStart = -1;
      }
    }
  }
  doc.fill('#000000');
}

function drawTicket(doc: PDFKit.PDFDocument, box: Box, content: { ticket: PrintableTicket; event: Pick<EventDetails, 'title' | 'days'>; fonts: Fonts }): void {
  const { ticket, event, fonts } = content;
  doc.save().lineWidth(0.5).dash(3, { space: 3 }).strokeColor('#999999').rect(box.x, box.y, box.width, box.height).stroke().restore();
  drawQrCode(doc, ticket.qrText ?? ticket.code, { x: box.x + (box.width - QR_SIDE_PT) / 2, y: box.y + CELL_PADDING, side: QR_SIDE_PT });

  const textX = box.x + CELL_PADDING;
  const textWidth = box.width - 2 * CELL_PADDING;
  // One line each: a height of one line makes PDFKit cut long text with an ellipsis instead of wrapping.
  const line = (fontSize: number) => ({ width: textWidth, height: fontSize * 1.2, align: 'center' as const, ellipsis: true });
  let y = box.y + CELL_PADDING + QR_SIDE_PT + 6;
  doc.font(fonts.bold).fontSize(10).fillColor('#000000').text(ticket.holderName, textX, y, line(10));
  y += 13;
  doc.font(fonts.regular).fontSize(8).fillColor('#222222').text(`${ticket.ticketType} · ${describeDays(ticket.days, event.days)}`, textX, y, line(8));
  y += 11;
  doc.font('Courier').fontSize(8).fillColor('#000000').text(ticket.code, textX, y, line(8));
  y += 11;
  doc.font(fonts.regular).fontSize(7).fillColor('#555555').text(event.title, textX, y, line(7));
}

/**
 * "Day 2", "Days 1, 3", for a ticket valid on every day "All days" ("Admit one" at a single-day
 * event), "No day" for one whose own days and type's have none in common.
 */
function describeDays(days: number[] | null, eventDays: EventDetails['days']): string {
  if (days === null) return eventDays.length > 1 ? 'All days' : 'Admit one';
  if (days.length === 0) return 'No day';
  return days.length === 1 ? `Day ${days[0]}` : `Days ${days.join(', ')}`;
}
