/**
 * The tickets PDF pool (docs/decisions/142) on its worker thread, without a database: a download
 * whose reader stops reading is ended after the stall deadline, so the one worker thread and the
 * queue are free again for the next download (a phone gone off the Wi-Fi keeps its connection open
 * for minutes).
 */
import { afterAll, expect, test } from 'vitest';
import { createTicketsPdfPool } from '../src/services/tickets-pdf-pool.ts';
import type { TicketsPdfContent } from '../src/services/tickets-pdf.ts';

const pool = createTicketsPdfPool({ stalledMs: 300 });
afterAll(() => pool.close());

/** An event's worth of `count` tickets to draw. */
function content(count: number): TicketsPdfContent {
  return {
    event: { title: 'Harbour Nights', date: '2026-12-04', location: 'Pier 2', days: [{ day: 1, name: 'Friday', date: '2026-12-04' }] },
    tickets: Array.from({ length: count }, (_, index) => ({ code: `HARBOUR-${String(index).padStart(6, '0')}`, holderName: `Guest ${index}`, ticketType: 'General', days: null })),
  };
}

test('a download nobody reads is ended after the stall deadline, and the next download is drawn whole', { timeout: 60_000 }, async () => {
  // Far more than the answer's buffer (256 KiB): the worker waits for a reader that never comes.
  const stalled = await pool.draw(async () => content(2_000));
  const ended = await new Promise<Error>((resolve) => stalled.once('error', resolve));
  expect(ended.message).toMatch(/read nothing for 300 ms/);

  const next = await pool.draw(async () => content(24));
  const chunks: Buffer[] = [];
  for await (const chunk of next) chunks.push(chunk as Buffer);
  const pdf = Buffer.concat(chunks);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.subarray(-6).toString()).toMatch(/%%EOF/);
});
