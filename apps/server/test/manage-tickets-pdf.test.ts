/**
 * Every ticket's QR PDF from the management area, drawn in a worker thread (docs/decisions/142):
 * a large print run leaves the event loop to the server's other answers, its QR codes (vector
 * squares, rendered here by MuPDF) decode to the tickets' codes, and one PDF is drawn at a time per
 * server, two more waiting their turn, a fourth refused. PGlite and PostgreSQL.
 */
import { performance } from 'node:perf_hooks';
import { ApiErrorBody, apiPaths, manageTicketPaths } from '@gatecheck/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_USER } from '../src/db/seed.ts';
import { createEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';
import { pageCountOfPdf, qrTextsOfTicketsPdf } from './helpers/tickets-pdf-pages.ts';

/** Tickets of the large event: 50 pages, enough that drawing them takes the worker a while. */
const LARGE_TICKETS = 600;
const PER_PAGE = 12;

let t: TestApp;
let adminToken: string;
let largeEventId: string;
let smallEventId: string;
/** The large event's codes in print order (by holder name). */
let largeCodes: string[];

async function newEvent(title: string): Promise<string> {
  const { organizationId } = await demoIds(t.database.db);
  return createEvent(
    t.database.db,
    { organizationId, title, description: '', date: '2026-12-05', location: 'Hall 1', status: 'live', timeZone: 'Europe/Berlin', dayCutoff: '04:00', allowsScanningOutsideDays: true, days: [] },
    { kind: 'user', userId: await userIdOf(t.database.db, DEMO_USER.username), name: DEMO_USER.displayName },
  );
}

beforeAll(async () => {
  t = await createTestApp();
  largeEventId = await newEvent('Large print run');
  smallEventId = await newEvent('Small print run');
  const numbers = Array.from({ length: LARGE_TICKETS }, (_, index) => String(index).padStart(4, '0'));
  largeCodes = numbers.map((number) => `PDF-LARGE-${number}`);
  await insertTickets(
    t.database.db,
    numbers.map((number) => ({ code: `PDF-LARGE-${number}`, eventId: largeEventId, holderName: `Holder ${number}`, ticketType: 'General Admission' })),
  );
  await insertTickets(t.database.db, [{ code: 'PDF-SMALL-1', eventId: smallEventId, holderName: 'Solo Holder', ticketType: 'General Admission' }]);
  adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
});
afterAll(async () => {
  await t.close();
});

function asAdmin(options: InjectOptions) {
  return t.app.inject({ ...options, headers: { ...bearer(adminToken), ...options.headers } });
}

test("a large tickets PDF is drawn off the event loop: the server answers /api/health while it is drawn, and its QR codes decode to the tickets' codes", async () => {
  const loopBefore = performance.eventLoopUtilization();
  let isPdfDone = false;
  const download = asAdmin({ method: 'GET', url: api(manageTicketPaths.ticketsPdf(largeEventId)) }).then((response) => {
    isPdfDone = true;
    return response;
  });
  // Health checks one after the other while the PDF is made: each is answered before the PDF is
  // done, and several are (the first alone could come before the drawing starts).
  let healthAnswersDuring = 0;
  while (!isPdfDone) {
    const health = await t.app.inject({ method: 'GET', url: api(apiPaths.health) });
    expect(health.statusCode).toBe(200);
    if (!isPdfDone) healthAnswersDuring += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const pdf = await download;
  // The event loop was mostly idle while the PDF was drawn: the drawing ran elsewhere (drawn on the
  // event loop it is busy throughout, about 1).
  const loop = performance.eventLoopUtilization(loopBefore);
  expect(pdf.statusCode).toBe(200);
  expect(healthAnswersDuring).toBeGreaterThan(3);
  expect(loop.utilization).toBeLessThan(0.5);

  expect(pdf.headers['content-type']).toBe('application/pdf');
  expect(pdf.headers['content-disposition']).toBe('attachment; filename="Large-print-run-tickets.pdf"');
  const pageCount = LARGE_TICKETS / PER_PAGE;
  expect(pageCountOfPdf(pdf.rawPayload)).toBe(pageCount);
  // The first and last pages, rendered and decoded (all 50 would cost the test seconds).
  expect(qrTextsOfTicketsPdf(pdf.rawPayload, { pages: [0, pageCount - 1] })).toEqual([...largeCodes.slice(0, PER_PAGE), ...largeCodes.slice(-PER_PAGE)]);
});

test('one tickets PDF is drawn at a time per server: two more wait their turn and come whole, a fourth at once is refused with 409 conflict; once they are done a PDF downloads again', async () => {
  const downloads = await Promise.all(Array.from({ length: 4 }, () => asAdmin({ method: 'GET', url: api(manageTicketPaths.ticketsPdf(largeEventId)) })));
  const refused = downloads.filter((response) => response.statusCode === 409);
  const drawn = downloads.filter((response) => response.statusCode === 200);
  expect(refused).toHaveLength(1);
  expect(ApiErrorBody.parse(refused[0]?.json())).toEqual({ code: 'conflict', message: 'Other tickets PDFs are being made on this server. Try again when they are done.' });
  expect(drawn).toHaveLength(3);
  for (const response of drawn) expect(pageCountOfPdf(response.rawPayload)).toBe(LARGE_TICKETS / PER_PAGE);

  const after = await asAdmin({ method: 'GET', url: api(manageTicketPaths.ticketsPdf(smallEventId)) });
  expect(after.statusCode).toBe(200);
  expect(qrTextsOfTicketsPdf(after.rawPayload)).toEqual(['PDF-SMALL-1']);
});
