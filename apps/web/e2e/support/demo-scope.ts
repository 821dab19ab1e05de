/**
 * What the demo seed put in the database, read back through the API as the signed-in demo user:
 * the organization, the live 3-day event and its days. The suite looks names up instead of copying
 * them from the seed, so a change of demo names does not break it.
 */
import type { APIRequestContext } from '@playwright/test';
import { API_PREFIX, type Event, EventList, type Organization, OrganizationList, apiPaths, organizationEventsPath } from '@gatecheck/contract';

/** The demo account of the seed (issue 2, README). */
export const DEMO_USER = { email: 'demo@example.com', username: 'demo', password: 'demo-scanner' } as const;

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

/**
 * Finds the organization holding a live event with exactly 3 days.
 * @param request a request context that is signed in (e.g. `page.request` after the UI sign-in:
 *   it shares the page's session cookie).
 * @throws Error when the seed has no such event.
 */
export async function findLiveThreeDayEvent(request: APIRequestContext): Promise<DemoScope> {
  const organizations = OrganizationList.parse(await getJson(request, apiPaths.organizations));
  for (const organization of organizations) {
    const events = EventList.parse(await getJson(request, organizationEventsPath(organization._id)));
    for (const event of events) {
      const eventDays = event.eventDays ?? [];
      if (event.status === 'live' && eventDays.length === 3) return { organization, event: { ...event, eventDays } };
    }
  }
  throw new Error(`No organization of ${DEMO_USER.email} has a live event with 3 days (organizations: ${organizations.map((o) => o.name).join(', ')}).`);
}
