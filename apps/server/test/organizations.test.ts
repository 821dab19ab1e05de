import { apiPaths, ApiErrorBody, EventList, OrganizationList, organizationEventsPath, todaysEventDay } from '@gatecheck/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  DEMO_DRAFT_EVENT_TITLE,
  DEMO_EMPTY_ORGANIZATION_NAME,
  DEMO_LIVE_EVENT_TITLE,
  DEMO_ORGANIZATION_NAME,
  DEMO_SINGLE_DAY_EVENT_TITLE,
  DEMO_TIME_ZONE,
  DEMO_TODAY_DAY_NUMBER,
  DEMO_USER,
} from '../src/db/seed.ts';
import { organizations } from '../src/db/schema.ts';
import { cliActor } from '../src/services/audit.ts';
import { createOrganization } from '../src/services/organizations.ts';
import { createOutsider, demoIds, OUTSIDER } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let demoToken: string;
let outsiderToken: string;
let outsider: Awaited<ReturnType<typeof createOutsider>>;
beforeAll(async () => {
  t = await createTestApp();
  outsider = await createOutsider(t.database.db);
  demoToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  outsiderToken = await login(t.app, OUTSIDER.username, OUTSIDER.password);
});
afterAll(async () => {
  await t.close();
});

test('staff see their organizations with their role and the active (not draft) events', async () => {
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.organizations), headers: bearer(demoToken) });
  expect(response.statusCode).toBe(200);
  const list = OrganizationList.parse(response.json());
  expect(list.map((organization) => [organization.name, organization.role])).toEqual([
    [DEMO_EMPTY_ORGANIZATION_NAME, 'staff'],
    [DEMO_ORGANIZATION_NAME, 'admin'],
  ]);
  const main = list.find((organization) => organization.name === DEMO_ORGANIZATION_NAME);
  expect(main?.activeEvents.map((event) => event.title).sort()).toEqual([DEMO_SINGLE_DAY_EVENT_TITLE, DEMO_LIVE_EVENT_TITLE].sort());
  expect(list.find((organization) => organization.name === DEMO_EMPTY_ORGANIZATION_NAME)?.activeEvents).toEqual([]);
});

test('a member sees only their own organizations', async () => {
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.organizations), headers: bearer(outsiderToken) });
  expect(OrganizationList.parse(response.json()).map((organization) => organization.name)).toEqual(['Other Org']);
});

test("a member gets the organization's events with days, status and tickets sold", async () => {
  const { organizationId } = await demoIds(t.database.db);
  const response = await t.app.inject({ method: 'GET', url: api(organizationEventsPath(organizationId)), headers: bearer(demoToken) });
  expect(response.statusCode).toBe(200);
  const list = EventList.parse(response.json());
  const byTitle = new Map(list.map((event) => [event.title, event]));
  const live = byTitle.get(DEMO_LIVE_EVENT_TITLE);
  expect(live?.status).toBe('live');
  expect(live?.eventDays?.map((day) => day.day)).toEqual([1, 2, 3]);
  expect(live?.eventDays?.[1]?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const liveTickets = t.demo?.tickets.filter((ticket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE && !ticket.isRevoked);
  expect(live?.ticketsSold).toBe(liveTickets?.length);
  expect(byTitle.get(DEMO_SINGLE_DAY_EVENT_TITLE)?.eventDays).toEqual([]);
  expect(byTitle.get(DEMO_DRAFT_EVENT_TITLE)?.status).toBe('draft');
});

test("each event carries its calendar, and the live demo event's day 2 is today at the venue (issue 15)", async () => {
  const { organizationId } = await demoIds(t.database.db);
  const response = await t.app.inject({ method: 'GET', url: api(organizationEventsPath(organizationId)), headers: bearer(demoToken) });
  const live = EventList.parse(response.json()).find((event) => event.title === DEMO_LIVE_EVENT_TITLE);
  expect(live).toMatchObject({ timeZone: DEMO_TIME_ZONE, dayCutoff: '06:00', allowsScanningOutsideDays: false });
  const calendar = { timeZone: live?.timeZone ?? '', dayCutoff: live?.dayCutoff ?? '', days: live?.eventDays ?? [] };
  expect(todaysEventDay(calendar, new Date())?.day).toBe(DEMO_TODAY_DAY_NUMBER);
});

test("a member of another organization may not list this organization's events (404, as for an unknown organization)", async () => {
  const { organizationId } = await demoIds(t.database.db);
  const response = await t.app.inject({ method: 'GET', url: api(organizationEventsPath(organizationId)), headers: bearer(outsiderToken) });
  expect(response.statusCode).toBe(404);
  expect(ApiErrorBody.parse(response.json())).toEqual({ code: 'not_found', message: 'Organization not found' });
  const own = await t.app.inject({ method: 'GET', url: api(organizationEventsPath(outsider.organizationId)), headers: bearer(outsiderToken) });
  expect(EventList.parse(own.json()).map((event) => event.title)).toEqual(['Other Event']);
});

test('an unknown organization id is a 404', async () => {
  for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' OR '1'='1"]) {
    const response = await t.app.inject({ method: 'GET', url: api(organizationEventsPath(id)), headers: bearer(demoToken) });
    expect(response.statusCode).toBe(404);
    expect(ApiErrorBody.parse(response.json()).code).toBe('not_found');
  }
});

test('anonymous callers get 401 on both organization routes', async () => {
  const { organizationId } = await demoIds(t.database.db);
  for (const url of [api(apiPaths.organizations), api(organizationEventsPath(organizationId))]) {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(401);
  }
});

test('eight creations of one organization name at once (any letter case) make one organization; the others are refused as taken', async () => {
  const names = ['Race Stage', 'RACE STAGE', 'race stage', 'Race stage', 'Race Stage', 'RACE STAGE', 'race stage', 'Race stage'];
  const results = await Promise.allSettled(names.map((name) => createOrganization(t.database.db, { name }, cliActor())));
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  for (const result of results) {
    if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'conflict', message: expect.stringMatching(/^An organization named ".+" already exists/) });
  }
  const stored = await t.database.db.select({ id: organizations.id }).from(organizations).where(eq(sql`lower(${organizations.name})`, 'race stage'));
  expect(stored).toHaveLength(1);
});
