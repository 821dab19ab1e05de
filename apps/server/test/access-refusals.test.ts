/**
 * A signed-in caller outside an organization learns nothing about its events and organizations
 * (docs/decisions/086): on every route family that takes an event or organization id, the answer to
 * an id that exists is the answer to a random one (404 `not_found`, the same message). A refused
 * verify writes nothing into that organization's scan log; the server's log records it as an access
 * refusal with the user and the event, and refusals per user are rate limited.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import {
  apiPaths,
  checkInCountsPath,
  offlinePaths,
  organizationEventsPath,
  supervisorPaths,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { scanLog, tickets } from '../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER, DEMO_USER, seedDemoData } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import { createUser } from '../src/services/users.ts';
import { createOutsider, demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestDatabase } from './helpers/test-app.ts';

/** Refused verifies a user may make per window here (RATE_LIMIT_IP_MAX). */
const REFUSALS_MAX = 4;

let app: FastifyInstance;
let close: () => Promise<void>;
const logLines: string[] = [];
let ids: Awaited<ReturnType<typeof demoIds>>;
let outsider: Awaited<ReturnType<typeof createOutsider>>;
let outsiderToken = '';
let memberToken = '';
let demoTicket = { id: '', code: '' };

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-refusals-'));
  const database = await createTestDatabase();
  await seedDemoData(database.db);
  ids = await demoIds(database.db);
  outsider = await createOutsider(database.db);
  outsiderToken = (await createSession(database.db, outsider.userId, 3_600_000)).token;
  memberToken = (await createSession(database.db, await userIdOf(database.db, DEMO_USER.username), 3_600_000)).token;
  const [ticket] = await database.db.select({ id: tickets.id, code: tickets.code }).from(tickets).where(eq(tickets.eventId, ids.liveEventId)).limit(1);
  if (!ticket) throw new Error('no demo ticket');
  demoTicket = ticket;
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_IP_MAX: String(REFUSALS_MAX),
  });
  app = await buildApp({ config, db: database.db, logStream: stream });
  close = async () => {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await close();
});

/** One request of a route family about event `eventId` (and organization `organizationId`). */
type RouteFamily = [name: string, request: (target: { eventId: string; organizationId: string }) => InjectOptions];

const DAY = 1;
const ROUTE_FAMILIES: RouteFamily[] = [
  ['organization events', ({ organizationId }) => ({ method: 'GET', url: api(organizationEventsPath(organizationId)) })],
  ['verify', ({ eventId }) => ({ method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId, qrCode: demoTicket.code, day: DAY } })],
  ['live counts', ({ eventId }) => ({ method: 'GET', url: api(checkInCountsPath(eventId, DAY)) })],
  ['attendee search', ({ eventId }) => ({ method: 'GET', url: api(`${supervisorPaths.attendeeSearch(eventId)}?q=abc&day=${DAY}`) })],
  ['manual check-in', ({ eventId }) => ({ method: 'POST', url: api(supervisorPaths.manualCheckIn(eventId, demoTicket.id)), payload: { day: DAY } })],
  ['undo', ({ eventId }) => ({ method: 'POST', url: api(supervisorPaths.undoCheckIn(eventId, demoTicket.id)), payload: { day: DAY, reason: 'x' } })],
  ['scan log', ({ eventId }) => ({ method: 'GET', url: api(supervisorPaths.scanLog(eventId)) })],
  ['door list', ({ eventId }) => ({ method: 'GET', url: api(offlinePaths.doorList(eventId, DAY)) })],
  ['offline upload', ({ eventId }) => ({ method: 'POST', url: api(offlinePaths.offlineScans(eventId, DAY)), payload: { scans: [] } })],
  ['offline conflicts', ({ eventId }) => ({ method: 'GET', url: api(offlinePaths.offlineConflicts(eventId, DAY)) })],
  ['signing keys', ({ eventId }) => ({ method: 'GET', url: api(offlinePaths.signingKeys(eventId)) })],
];

test.each(ROUTE_FAMILIES)('%s: a non-member gets the same 404 for an existing id as for a random one', async (_name, request) => {
  const answer = async (target: { eventId: string; organizationId: string }) => {
    const options = request(target);
    const response = await app.inject({ ...options, headers: bearer(outsiderToken) });
    // The ids asked for are the only difference allowed: each answer names its own.
    const body = response.body.replaceAll(target.eventId, '<event>').replaceAll(target.organizationId, '<organization>');
    return { status: response.statusCode, body };
  };
  const existing = await answer({ eventId: ids.liveEventId, organizationId: ids.organizationId });
  const random = await answer({ eventId: randomUUID(), organizationId: randomUUID() });
  expect(existing).toEqual(random);
  expect(existing.status).toBe(404);
});

test("a non-member's verify writes nothing into the organization's scan log and is logged on the server as an access refusal", async () => {
  const before = await app.db.select({ id: scanLog.id }).from(scanLog).where(eq(scanLog.eventId, ids.liveEventId));
  const response = await app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(outsiderToken),
    payload: { eventId: ids.liveEventId, qrCode: '=HYPERLINK("https://evil.example/")', day: DAY },
  });
  expect(response.statusCode).toBe(404);
  expect(await app.db.select({ id: scanLog.id }).from(scanLog).where(eq(scanLog.eventId, ids.liveEventId))).toEqual(before);
  const refusals = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'access refused: not a member of the organization');
  expect(refusals).toEqual(expect.arrayContaining([expect.objectContaining({ level: 40, userId: outsider.userId, eventId: ids.liveEventId })]));
});

test('refused verifies are limited per user (429 after the limit, unknown and foreign events alike); members scanning are not', async () => {
  const strangerId = await createUser(app.db, { email: 'stranger@example.org', username: 'stranger', password: 'stranger-pass', displayName: 'Stan Stranger', country: 'IE' });
  const token = (await createSession(app.db, strangerId, 3_600_000)).token;
  const verifyAs = (as: string, eventId: string) =>
    app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(as), payload: { eventId, qrCode: demoTicket.code, day: DEMO_TODAY_DAY_NUMBER } });
  const statuses: number[] = [];
  for (let n = 0; n < REFUSALS_MAX + 2; n += 1) statuses.push((await verifyAs(token, n % 2 === 0 ? ids.liveEventId : randomUUID())).statusCode);
  expect(statuses).toEqual([...Array<number>(REFUSALS_MAX).fill(404), 429, 429]);
  const member = await verifyAs(memberToken, ids.liveEventId);
  expect(member.statusCode).toBe(200);
  expect(typeof VerifyTicketResponse.parse(member.json()).isValid).toBe('boolean');
});
