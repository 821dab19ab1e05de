/**
 * The Activity page's entries (docs/decisions/126) on the real app and database: a CSV import is one
 * entry with its counts (added, skipped, rejected) however many batches it commits, and the trail is
 * read a page at a time, each page older than the last entry of the one before, with nothing left
 * out or repeated; the organization's own entries (its team) on their own Activity, without the
 * events'.
 */
import { ActivityQuery, ApiErrorBody, AuditEntryList, managePaths, manageTicketPaths, OrganizationAuditEntryList, TicketImportEvent } from '@gatecheck/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { auditEntries } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createEvent } from '../src/services/events.ts';
import { createSession } from '../src/services/sessions.ts';
import { changeMemberRole } from '../src/services/team.ts';
import { createTicketType } from '../src/services/ticket-types.ts';
import { demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let organizationId: string;
let adminToken: string;
let eventCounter = 0;

beforeAll(async () => {
  t = await createTestApp();
  organizationId = (await demoIds(t.database.db)).organizationId;
  adminToken = (await createSession(t.database.db, await userIdOf(t.database.db, DEMO_USER.username), 60_000)).token;
});
afterAll(async () => {
  await t.close();
});

async function newEvent(): Promise<string> {
  eventCounter += 1;
  return createEvent(
    t.database.db,
    {
      organizationId,
      title: `Activity ${eventCounter}`,
      description: '',
      date: '2026-12-04',
      location: '',
      status: 'live',
      timeZone: 'Europe/Berlin',
      dayCutoff: '04:00',
      allowsScanningOutsideDays: true,
      days: [{ day: 1, name: 'Friday', date: '2026-12-04' }],
    },
    cliActor(),
  );
}

const get = (url: string) => t.app.inject({ method: 'GET', url: api(url), headers: bearer(adminToken) });

test(`a CSV import of three batches is one entry on the activity: rows, added, skipped (code taken) and rejected, finished (${TEST_DATABASE_KIND})`, async () => {
  const eventId = await newEvent();
  const rows = Array.from({ length: 1_200 }, (_, index) => `ACT${eventCounter}-${String(index).padStart(5, '0')}-QWER-TYUI,Guest ${index},General,all`);
  rows[700] = `ACT${eventCounter}-00001-QWER-TYUI,Twice Listed,General,all`;
  rows[1_100] = `,Bad Day,General,9`;
  const csv = ['code,holder_name,ticket_type,days', ...rows, ''].join('\n');
  const response = await t.app.inject({ method: 'POST', url: api(manageTicketPaths.importTickets(eventId)), headers: { ...bearer(adminToken), 'content-type': 'text/csv' }, payload: csv });
  expect(response.statusCode, response.body).toBe(200);
  const lines = response.body.trim().split('\n').map((line) => TicketImportEvent.parse(JSON.parse(line)));
  expect(lines.filter((line) => line.type === 'progress').length).toBeGreaterThanOrEqual(3);
  expect(lines.at(-1)).toMatchObject({ type: 'done', summary: { imported: 1_198 } });

  const activity = AuditEntryList.parse((await get(managePaths.eventActivity(eventId))).json());
  const imports = activity.filter((entry) => entry.action === 'tickets.imported');
  expect(imports).toHaveLength(1);
  expect(imports[0]).toMatchObject({ before: null, after: { rows: 1_200, added: 1_198, skipped: 1, rejected: 1, isFinished: true }, actor: { kind: 'user' } });
  const stored = await t.database.db.select().from(auditEntries).where(and(eq(auditEntries.eventId, eventId), eq(auditEntries.action, 'tickets.imported')));
  expect(stored).toHaveLength(1);
});

test('the activity is read a page at a time: each page older than the last entry of the one before, together the whole trail once, newest first', async () => {
  const eventId = await newEvent();
  for (const name of ['A', 'B', 'C', 'D']) await createTicketType(t.database.db, eventId, { name, checkInNote: '', requiresAttention: false }, cliActor());
  const whole = AuditEntryList.parse((await get(managePaths.eventActivity(eventId))).json());
  expect(whole).toHaveLength(5);

  const pages: AuditEntryList[] = [];
  let before: string | undefined;
  // At most a few pages: a server that ignored the cursor would answer the same page for ever.
  while (pages.length < 5) {
    const page = AuditEntryList.parse((await get(managePaths.eventActivity(eventId, { before, limit: 2 }))).json());
    pages.push(page);
    if (page.length < 2) break;
    before = page.at(-1)?.id;
  }
  expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
  expect(pages.flat().map((entry) => entry.id)).toEqual(whole.map((entry) => entry.id));
  expect(pages.flat().at(-1)?.action).toBe('event.created');

  for (const query of ['before=not-an-id', 'limit=0', 'limit=201']) {
    const refused = await t.app.inject({ method: 'GET', url: api(`${managePaths.eventActivity(eventId)}?${query}`), headers: bearer(adminToken) });
    expect(refused.statusCode).toBe(400);
    expect(ApiErrorBody.parse(refused.json()).code).toBe('validation_failed');
  }
  expect(ActivityQuery.parse({}).limit).toBe(200);
});

test("the organization's Activity has its team's changes with before and after, a page at a time, and none of its events' entries", async () => {
  const colleagueId = await userIdOf(t.database.db, DEMO_COLLEAGUE.username);
  const admin = { kind: 'user' as const, userId: await userIdOf(t.database.db, DEMO_USER.username), name: DEMO_USER.displayName };
  await changeMemberRole(t.database.db, { organizationId, userId: colleagueId, role: 'supervisor' }, admin);
  await changeMemberRole(t.database.db, { organizationId, userId: colleagueId, role: 'staff' }, admin);
  await newEvent();

  const first = OrganizationAuditEntryList.parse((await get(managePaths.organizationActivity(organizationId, { limit: 1 }))).json());
  expect(first).toHaveLength(1);
  expect(first[0]).toMatchObject({ action: 'member.role_changed', actor: { kind: 'user', name: DEMO_USER.displayName }, before: { role: 'supervisor' }, after: { role: 'staff' } });
  const older = OrganizationAuditEntryList.parse((await get(managePaths.organizationActivity(organizationId, { before: first[0]?.id, limit: 1 }))).json());
  expect(older[0]).toMatchObject({ action: 'member.role_changed', before: { role: 'staff' }, after: { role: 'supervisor' } });
  const whole = OrganizationAuditEntryList.parse((await get(managePaths.organizationActivity(organizationId))).json());
  expect(whole.every((entry) => !entry.action.startsWith('event.'))).toBe(true);
});
