/**
 * `tickets import`, `tickets revoke`, `tickets export-qr`: getting tickets into an event, stopping one,
 * and printing them.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { CHECK_IN_NOTE_MAX_LENGTH, DOOR_LIST_MIN_CODE_BITS } from '@gatecheck/contract';
import type { Command } from 'commander';
import { cliActor } from '../../services/audit.ts';
import { revokeTicket, updateTicketNote } from '../../services/tickets.ts';
import { reindexSearchTerms } from '../../services/attendee-search.ts';
import type { DbOrTx } from '../../db/client.ts';
import { countNeedingUnicodeFont, listPrintableTickets, type PrintableTicket, withSignedQrTexts, writeTicketPngs, writeTicketsPdf } from '../../services/qr-export.ts';
import { SigningKeySecretMissing, type SigningKeyVault } from '../../services/signing-key-vault.ts';
import { revokeSigningKey } from '../../services/signing-keys.ts';
import { DEFAULT_IMPORT_BATCH_SIZE, importTicketsCsv } from '../../services/tickets-import.ts';
import { parseAttention, parsePositiveInteger } from '../arguments.ts';
import { CliError, type AdminContext } from '../context.ts';
import { startProgress } from '../output.ts';

/** Rejected rows listed one by one; beyond this, a count. */
const MAX_REJECTIONS_SHOWN = 200;

/** Adds the `tickets` commands to `program`. */
export function registerTicketCommands(program: Command, context: AdminContext): void {
  const tickets = program.command('tickets').description('import, revoke and print tickets');

  tickets
    .command('reindex-search')
    .description('rewrite the attendee-search terms of every ticket (after upgrading a database with tickets)')
    .action(async () => {
      const count = await reindexSearchTerms(await context.db());
      context.print(`Reindexed the search terms of ${count} tickets`);
    });

  tickets
    .command('import')
    .description('import tickets from a CSV file into an event; prints a summary with every rejected row and why')
    .argument('<file.csv>', 'CSV with the header code,holder_name,ticket_type,days (the demo tickets.csv also works)')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .option('--batch-size <n>', 'rows per database transaction', parsePositiveInteger, DEFAULT_IMPORT_BATCH_SIZE)
    .addHelpText(
      'after',
      [
        '',
        'CSV columns:',
        '  code         optional; empty or missing = an unguessable code is generated',
        '               (letters, digits, . _ -; at most 128 characters)',
        '  holder_name  the attendee',
        '  ticket_type  e.g. General Admission, VIP, Day Pass',
        '  days         all, or the day numbers it admits joined by | (e.g. 1|3)',
        '  event_title  optional; rows naming another event are rejected',
        `  note         optional; what the door shows for this ticket (at most ${CHECK_IN_NOTE_MAX_LENGTH} characters),`,
        '               shown above its ticket type\'s note (ticket-type set)',
        '  attention    optional; yes/no, true/false, 1/0 (empty = no): the scanner sounds and',
        '               vibrates differently for this ticket, so staff look up',
        'Rows with problems (duplicate code, unknown day, empty holder, malformed days ...) are',
        'rejected one by one; all other rows are imported. A file with a misplaced quote or that',
        'is not UTF-8 is refused whole. Commas separate fields, or semicolons if the header uses them.',
        'A code too easy to guess (under 64 bits: an 8-digit barcode, say) is imported but kept off',
        'the phones\' door lists, where it could be recovered with its holder\'s name; the summary names',
        'each. Phones check such tickets only online, printed signed or not; a ticket imported with an',
        'empty code gets an unguessable one that phones can check offline.',
        '',
        'Example:',
        '  npm run admin -- tickets import --event 0b7c...e1 ./tickets.csv',
      ].join('\n'),
    )
    .action(async (file: string, options: { event: string; batchSize: number }) => {
      const csvFile = context.resolvePath(file);
      // Read as the batches go (never the whole file in memory); the size only drives the progress bar.
      const { size } = await statInput(csvFile);
      const progress = startProgress(context.io.stderr, 'Importing tickets (bytes)');
      const summary = await importTicketsCsv(await context.db(), {
        eventId: options.event,
        csv: () => createReadStream(csvFile),
        batchSize: options.batchSize,
        actor: cliActor(),
        onProgress: ({ bytes }) => progress.update(bytes, size),
      }).finally(() => progress.stop());
      context.print(`Imported ${summary.imported} of ${rowsText(summary.rows)} into "${summary.eventTitle}"${summary.generatedCodes > 0 ? ` (${summary.generatedCodes} with generated codes)` : ''}.`);
      context.print(`Rejected ${rowsText(summary.rejected.length)}.`);
      for (const row of summary.rejected.slice(0, MAX_REJECTIONS_SHOWN)) {
        context.print(`  line ${row.line}${row.code ? ` (${row.code})` : ''}: ${row.reason}`);
      }
      if (summary.rejected.length > MAX_REJECTIONS_SHOWN) {
        context.print(`  ... and ${summary.rejected.length - MAX_REJECTIONS_SHOWN} more`);
      }
      if (summary.offlineOnly.count > 0) {
        context.print(
          `Kept off the door list: ${summary.offlineOnly.count} ticket${summary.offlineOnly.count === 1 ? '' : 's'} whose code is too easy to guess ` +
            `(under ${DOOR_LIST_MIN_CODE_BITS} bits). They are valid, but a phone without the server cannot check them, typed or scanned, signed or not ` +
            '(the door list cannot say whether they were revoked or checked in at another gate); a ticket imported with an empty code gets one phones can check offline.',
        );
        for (const row of summary.offlineOnly.rows) context.print(`  line ${row.line} (${row.code}): about ${Math.floor(row.bits)} bits`);
        if (summary.offlineOnly.count > summary.offlineOnly.rows.length) context.print(`  ... and ${summary.offlineOnly.count - summary.offlineOnly.rows.length} more`);
      }
      if (summary.generatedCodes > 0) context.print('Print the tickets with: tickets export-qr --event <id> --out <dir> --pdf <file.pdf>');
    });

  tickets
    .command('note')
    .description("set a ticket's own check-in note and/or attention flag (shown at the door with its type's)")
    .argument('<code>', 'the ticket code (as in its QR code)')
    .option('--note <text>', `what the door shows for this ticket (at most ${CHECK_IN_NOTE_MAX_LENGTH} characters; "" clears it)`)
    .option('--attention <yes|no>', 'yes: the scanner sounds and vibrates differently, so staff look up', parseAttention)
    .addHelpText('after', '\nExample:\n  npm run admin -- tickets note GC-7Q2MZK4D3XW5HJ6P --note "Wheelchair access: side gate" --attention yes')
    .action(async (code: string, options: { note?: string; attention?: boolean }) => {
      const ticket = await updateTicketNote(await context.db(), code.trim(), { checkInNote: options.note, requiresAttention: options.attention }, cliActor());
      const note = ticket.note === '' ? 'no note' : `note ${JSON.stringify(ticket.note)}`;
      context.print(`Ticket ${ticket.code} ("${ticket.eventTitle}"): ${ticket.requiresAttention ? 'attention' : 'no attention'}; ${note}`);
    });

  tickets
    .command('revoke')
    .description('revoke a ticket: later scans are denied as revoked (earlier check-ins stay)')
    .argument('<code>', 'the ticket code (as in its QR code)')
    .addHelpText('after', '\nExample:\n  npm run admin -- tickets revoke GC-7Q2MZK4D3XW5HJ6P')
    .action(async (code: string) => {
      const ticket = await revokeTicket(await context.db(), code.trim(), cliActor());
      const what = `ticket ${ticket.code} (${ticket.holderName}, "${ticket.eventTitle}")`;
      context.print(ticket.wasAlreadyRevoked ? `The ${what} was already revoked at ${ticket.revokedAt.toISOString()}` : `Revoked ${what}`);
    });

  tickets
    .command('revoke-signing-key')
    .description("revoke an event's signing key: tickets it signed are no longer accepted, online or by devices after their next door-list download")
    .argument('<keyId>', 'the key id (the first part of a signed QR text\'s payload; see GET /events/{eventId}/signing-keys)')
    .requiredOption('--event <id>', 'event id (see: event list)')
    .addHelpText('after', '\nPrint the event\'s tickets again afterwards (tickets export-qr --signed): a new key signs them.\n\nExample:\n  npm run admin -- tickets revoke-signing-key --event 0b7c...e1 Xw3k9QmZp0aB')
    .action(async (keyId: string, options: { event: string }) => {
      const outcome = await revokeSigningKey(await context.db(), options.event, keyId.trim());
      context.print(
        outcome.wasAlreadyRevoked
          ? `The signing key ${keyId} was already revoked at ${outcome.revokedAt.toISOString()}`
          : `Revoked the signing key ${keyId}: tickets it signed are denied as unknown codes; print them again with tickets export-qr --signed`,
      );
    });

  tickets
    .command('export-qr')
    .description("write one <code>.png QR code per ticket of an event (revoked ones left out), and optionally a printable A4 PDF")
    .requiredOption('--event <id>', 'event id (see: event list)')
    .requiredOption('--out <dir>', 'folder for the PNG files (created if missing)')
    .option('--pdf <file.pdf>', 'also write a printable PDF: 12 tickets per A4 page with holder, type, code and event')
    .option('--font <file.ttf>', 'TrueType/OpenType font for the PDF, for names beyond Western European letters')
    .option('--signed', "print signed QR texts (GC1.…, Ed25519 with the event's key: a device can check them without a door list)")
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  npm run admin -- tickets export-qr --event 0b7c...e1 --out ./qr --pdf ./tickets.pdf',
        '  npm run admin -- tickets export-qr --event 0b7c...e1 --out ./qr --pdf ./tickets.pdf \\',
        '    --font /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
      ].join('\n'),
    )
    .action(async (options: { event: string; out: string; pdf?: string; font?: string; signed?: boolean }) => {
      const db = await context.db();
      const printable = await listPrintableTickets(db, options.event);
      const event = printable.event;
      const list = options.signed ? await signedForCli(db, await context.signingKeyVault(), event.id, printable.tickets) : printable.tickets;
      if (list.length === 0) {
        // Not an error (a new event), but no empty PDF or folder that looks like a print run.
        context.print(`"${event.title}" has no tickets to print (revoked ones are left out): nothing written. Import them first: tickets import --event ${event.id} <file.csv>`);
        return;
      }
      const outDir = context.resolvePath(options.out);
      const pngProgress = startProgress(context.io.stderr, 'Writing QR codes');
      await writeTicketPngs(outDir, list, (done, total) => pngProgress.update(done, total)).finally(() => pngProgress.stop());
      context.print(`Wrote ${list.length} QR code PNGs for "${event.title}" to ${outDir}`);
      if (options.pdf) {
        const pdfFile = context.resolvePath(options.pdf);
        const fontFile = options.font ? context.resolvePath(options.font) : undefined;
        if (fontFile) await readInput(fontFile);
        const pdfProgress = startProgress(context.io.stderr, 'Writing PDF');
        await writeTicketsPdf(pdfFile, { event, tickets: list, fontFile }, (done, total) => pdfProgress.update(done, total)).finally(() =>
          pdfProgress.stop(),
        );
        context.print(`Wrote ${Math.max(1, Math.ceil(list.length / 12))} A4 pages to ${pdfFile}`);
        const unprintable = fontFile ? 0 : countNeedingUnicodeFont(list);
        if (unprintable > 0) {
          context.io.stderr.write(
            `warning: ${unprintable} tickets have names the built-in PDF font cannot show; run again with --font <file.ttf>\n`,
          );
        }
      }
    });
}

/** `list` with each ticket's signed QR text (the service's `withSignedQrTexts`); no secret is a CliError. */
async function signedForCli(db: DbOrTx, vault: SigningKeyVault, eventId: string, list: PrintableTicket[]): Promise<PrintableTicket[]> {
  return withSignedQrTexts(db, vault, eventId, list).catch((error: unknown) => {
    throw error instanceof SigningKeySecretMissing ? new CliError(error.message) : error;
  });
}

async function readInput(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw inputError(file, error);
  }
}

/** The size of `file` (bytes), checking that it exists and is a file. @throws CliError otherwise. */
async function statInput(file: string): Promise<{ size: number }> {
  try {
    const stats = await stat(file);
    if (!stats.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    return { size: stats.size };
  } catch (error) {
    throw inputError(file, error);
  }
}

function inputError(file: string, error: unknown): CliError {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  return new CliError(code === 'ENOENT' ? `File not found: ${file}` : `Cannot read ${file} (${code || 'unknown error'})`);
}

/** `1 row`, `2 rows`. */
function rowsText(count: number): string {
  return `${count} ${count === 1 ? 'row' : 'rows'}`;
}
