/**
 * `npx tsx bench/tickets-pdf.bench.ts [tickets] [rounds]` (docs/decisions/142): what drawing the
 * tickets PDF costs a ticket — CPU ms (user + system of this process, so the machine's other load
 * counts little), wall ms and bytes — through `renderTicketsPdf` (services/qr-export.ts, as the CLI
 * and the worker thread call it) in this process, into a sink that drops the bytes. Tickets carry
 * signed-length texts (a `GC1.` text is about 100 characters: a larger QR code than a plain code).
 * Default 600 tickets (50 pages), 3 rounds after one warm-up round; prints each round and the median.
 */
import { Writable } from 'node:stream';
import { renderTicketsPdf } from '../src/services/qr-export.ts';

const TICKETS = Number(process.argv[2] ?? 600);
const ROUNDS = Number(process.argv[3] ?? 3);
if (!Number.isInteger(TICKETS) || TICKETS <= 0 || !Number.isInteger(ROUNDS) || ROUNDS <= 0) throw new Error('usage: tickets-pdf.bench.ts [tickets] [rounds], positive whole numbers');

const tickets = Array.from({ length: TICKETS }, (_, index) => ({
  code: `BENCH-${String(index).padStart(6, '0')}`,
  qrText: `GC1.${'A1b2C3d4'.repeat(12)}.${index}`,
  holderName: `Print Holder ${index}`,
  ticketType: 'General Admission',
  days: null,
}));
const event = { title: 'Bench Festival', date: '2026-07-01', location: 'Main Hall', days: [] };

/** One PDF of TICKETS tickets: CPU and wall ms per ticket, bytes per ticket. */
async function round(): Promise<{ cpuMs: number; wallMs: number; bytes: number }> {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback();
    },
  });
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  await renderTicketsPdf(sink, { event, tickets });
  const cpu = process.cpuUsage(cpuBefore);
  return { cpuMs: (cpu.user + cpu.system) / 1000 / TICKETS, wallMs: (performance.now() - wallBefore) / TICKETS, bytes: bytes / TICKETS };
}

await round();
const results = [];
for (let index = 0; index < ROUNDS; index++) {
  const result = await round();
  results.push(result);
  console.log(`round ${index + 1}: ${result.cpuMs.toFixed(2)} ms CPU a ticket, ${result.wallMs.toFixed(2)} ms wall, ${(result.bytes / 1024).toFixed(2)} KiB`);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const cpuMs = median(results.map((result) => result.cpuMs));
console.log(
  `${TICKETS} tickets a PDF, median of ${ROUNDS}: ${cpuMs.toFixed(2)} ms CPU a ticket (100,000 tickets ≈ ${((cpuMs * 100_000) / 60_000).toFixed(1)} min of a core), ${(median(results.map((result) => result.bytes)) / 1024).toFixed(2)} KiB a ticket`,
);
