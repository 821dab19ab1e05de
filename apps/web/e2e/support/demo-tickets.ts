/**
 * The demo tickets the server writes on first start to `$DATA_DIR/demo-tickets/tickets.csv`
 * (header `code,event_title,holder_name,ticket_type,days`; days `all` or day numbers like `1|3`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';

const CsvRow = z.object({
  code: z.string().min(1),
  event_title: z.string().min(1),
  holder_name: z.string().min(1),
  ticket_type: z.string(),
  days: z.string().regex(/^(all|\d+(\|\d+)*)$/),
});

/** One demo ticket; `days` is `'all'` or the day numbers it admits. */
export interface DemoTicket {
  code: string;
  eventTitle: string;
  holderName: string;
  ticketType: string;
  days: 'all' | number[];
}

/**
 * Reads and validates the demo tickets of a server's data dir.
 * @throws Error when the file is missing, empty or a row does not match the header above.
 */
export function readDemoTickets(dataDir: string): DemoTicket[] {
  const text = readFileSync(join(dataDir, 'demo-tickets', 'tickets.csv'), 'utf8');
  const rows = z.array(CsvRow).min(1).parse(parse(text, { columns: true, skip_empty_lines: true, trim: true }));
  return rows.map((row) => ({
    code: row.code,
    eventTitle: row.event_title,
    holderName: row.holder_name,
    ticketType: row.ticket_type,
    days: row.days === 'all' ? 'all' : row.days.split('|').map(Number),
  }));
}

/** Whether `ticket` admits event day `day`. */
export function admitsDay(ticket: DemoTicket, day: number): boolean {
  return ticket.days === 'all' || ticket.days.includes(day);
}

/**
 * Hands out demo tickets, each at most once per server, so tests sharing a server never scan a
 * ticket another test already checked in.
 */
export class TicketPool {
  private readonly taken = new Set<string>();

  constructor(readonly tickets: readonly DemoTicket[]) {}

  /**
   * The first untaken ticket matching `predicate`, now taken.
   * @throws Error when none is left.
   */
  take(description: string, predicate: (ticket: DemoTicket) => boolean): DemoTicket {
    const ticket = this.tickets.find((candidate) => !this.taken.has(candidate.code) && predicate(candidate));
    if (!ticket) throw new Error(`No demo ticket left that is ${description} (of ${this.tickets.length} in tickets.csv).`);
    this.taken.add(ticket.code);
    return ticket;
  }

  /**
   * The first untaken ticket of the event titled `eventTitle` that admits day `day`, now taken.
   * @throws Error when none is left.
   */
  takeForDay(eventTitle: string, day: number): DemoTicket {
    return this.take(`for "${eventTitle}" on day ${day}`, (candidate) => candidate.eventTitle === eventTitle && admitsDay(candidate, day));
  }
}
