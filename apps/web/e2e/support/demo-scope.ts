/**
 * What the demo seed put in the database, read back through the API as the signed-in demo user:
 * the organization, the live 3-day event and its days. The suite looks names up instead of copying
 * them from the seed, so a change of demo names does not break it.
 */
import type { APIRequestContext } from '@playwright/test';
import {
  API_PREFIX,
  DEFAULT_DAY_CUTOFF,
  DEFAULT_EVENT_TIME_ZONE,
  type Event,
  EventList,
  type Organization,
  OrganizationList,
  apiPaths,
  organizationEventsPath,
  todaysEventDay,
} from '@gatecheck/contract';

/** The demo account of the seed (issue 2, README). */
export const DEMO_USER = { email: 'demo@example.com', username: 'demo', password: 'demo-scanner' } as const;
/** The demo organization's supervisor and another staff member (seed, README). */
export const DEMO_SUPERVISOR = { email: 'sam@example.com', password: 'sam-supervisor' } as const;
export const DEMO_COLLEAGUE = { email: 'alex@example.com', password: 'alex-scanner' } as const;

/** The organization and event the main job runs in. */
export interface DemoScope {
  organization: Organization;
  /** The live event with three days. */
  event: Event & { eventDays: NonNullable<Event['eventDays']> };
}

async function getJson(request: APIRequestContext, path: string): Promise<unknown> {
  const response = await request.get(`${API_PREFIX}${path}`);
  if (!response.ok()) throw new Error(`GET ${API_PREFIX}${path} answered ${response.status()}: ${await response.text()}`);
  return response.json();
}

/** One organization of the signed-in user with its events. */
interface Membership {
  organization: Organization;
  events: Event[];
}

/**
 * Every organization of the signed-in user with its events, through the API (SPEC §7 calls).
 * @param request a request context that is signed in (e.g. `page.request` after the UI sign-in:
 *   it shares the page's session cookie).
 * @throws Error when a call fails or an answer does not match the contract.
 */
async function readMemberships(request: APIRequestContext): Promise<Membership[]> {
  const organizations = OrganizationList.parse(await getJson(request, apiPaths.organizations));
  return Promise.all(
    organizations.map(async (organization) => ({
      organization,
      events: EventList.parse(await getJson(request, organizationEventsPath(organization._id))),
    })),
  );
}

/**
 * The organization holding a live event with exactly 3 days, and that event.
 * @throws Error when the seed has no such event.
 */
export async function findLiveThreeDayEvent(request: APIRequestContext): Promise<DemoScope> {
  const memberships = await readMemberships(request);
  for (const { organization, events } of memberships) {
    for (const event of events) {
      const eventDays = event.eventDays ?? [];
      if (event.status === 'live' && eventDays.length === 3) return { organization, event: { ...event, eventDays } };
    }
  }
  throw new Error(`No organization of ${DEMO_USER.email} has a live event with 3 days (organizations: ${memberships.map((m) => m.organization.name).join(', ')}).`);
}

/**
 * The number of `event`'s day that is today at the venue (its time zone and cut-off), as the server
 * decides check-ins (issue 15): the demo seed keeps one such day.
 * @throws Error when no day of the event is today.
 */
export function todaysDayNumber(event: Event): number {
  const calendar = { timeZone: event.timeZone ?? DEFAULT_EVENT_TIME_ZONE, dayCutoff: event.dayCutoff ?? DEFAULT_DAY_CUTOFF, days: event.eventDays ?? [] };
  const today = todaysEventDay(calendar, new Date());
  if (!today) throw new Error(`No day of "${event.title}" is today in ${calendar.timeZone}.`);
  return today.day;
}

/** The signed-in user's events with `status`, with their organization. */
export async function findEventsWithStatus(request: APIRequestContext, status: string): Promise<Array<{ organization: Organization; event: Event }>> {
  const memberships = await readMemberships(request);
  return memberships.flatMap(({ organization, events }) => events.filter((event) => event.status === status).map((event) => ({ organization, event })));
}

/**
 * An organization without events, and one holding an event without days that is not a draft (with
 * that event).
 * @throws Error when the seed has neither.
 */
export async function findEmptyStates(request: APIRequestContext): Promise<{ emptyOrganization: Organization; organization: Organization; eventWithoutDays: Event }> {
  const memberships = await readMemberships(request);
  const empty = memberships.find((membership) => membership.events.length === 0);
  // A scannable event (not a draft) is the case SPEC §2's 'Continue to Scanner' is for.
  const isDayless = (event: Event) => (event.eventDays ?? []).length === 0 && event.status !== 'draft';
  const withDaylessEvent = memberships.find((membership) => membership.events.some(isDayless));
  const eventWithoutDays = withDaylessEvent?.events.find(isDayless);
  if (!empty || !withDaylessEvent || !eventWithoutDays) {
    throw new Error(`The demo seed needs an organization without events and an event without days (organizations: ${memberships.map((m) => m.organization.name).join(', ')}).`);
  }
  return { emptyOrganization: empty.organization, organization: withDaylessEvent.organization, eventWithoutDays };
}
