/**
 * Test data on the wire (contract types) and its mapped local form. The wire values are what the MSW
 * default handlers answer; the local values are what the app stores after mapping them.
 */
import type { Event, Organization, UserMe } from '@gatecheck/contract';
import type { EventDay, EventItem, OrganizationItem, User } from '@/lib/entities.ts';

export const TEST_TOKEN = 'test-session-token';

export const wireUser: UserMe = {
  id: 'user-1',
  displayName: 'Dana Demo',
  username: 'demo',
  email: 'demo@example.com',
  country: 'NL',
  createdAt: '2026-01-15T09:30:00.000Z',
  settings: { emailNotifications: true, smsNotifications: false, marketingEmails: false, eventReminders: true },
};

export const testUser: User = {
  id: 'user-1',
  name: 'Dana Demo',
  username: 'demo',
  email: 'demo@example.com',
  country: 'NL',
  joinedAt: '2026-01-15T09:30:00.000Z',
  token: TEST_TOKEN,
  settings: { emailNotifications: true, smsNotifications: false, marketingEmails: false, eventReminders: true },
};

export const wireOrganizations: Organization[] = [
  {
    _id: 'org-1',
    name: 'Harbour Festivals',
    description: 'Open-air concerts at the harbour',
    role: 'staff',
    activeEvents: [
      { _id: 'event-1', title: 'Harbour Sound 2026' },
      { _id: 'event-2', title: 'Quay Jazz Night' },
    ],
  },
  { _id: 'org-2', name: 'City Theatre', description: null, role: 'admin', activeEvents: [{ _id: 'event-9', title: 'Hamlet' }] },
];

export const testOrganization: OrganizationItem = {
  id: 'org-1',
  name: 'Harbour Festivals',
  description: 'Open-air concerts at the harbour',
  role: 'staff',
  activeEventCount: 2,
};

export const wireEvents: Event[] = [
  {
    _id: 'event-1',
    title: 'Harbour Sound 2026',
    description: 'Three days of music',
    date: '2026-07-10',
    location: 'Pier 4, Rotterdam',
    ticketsSold: 1250,
    status: 'live',
    eventDays: [
      { day: 1, name: 'Opening Friday', date: '2026-07-10' },
      { day: 2, name: 'Big Saturday', date: '2026-07-11' },
      { day: 3, name: 'Closing Sunday', date: '2026-07-12' },
    ],
    timeZone: 'Europe/Amsterdam',
    dayCutoff: '06:00',
    allowsScanningOutsideDays: false,
  },
  {
    _id: 'event-2',
    title: 'Quay Jazz Night',
    description: null,
    date: '2026-08-01',
    location: 'Quay Stage',
    ticketsSold: null,
    status: 'active',
    eventDays: null,
  },
  { _id: 'event-3', title: 'Winter Warm-up', date: '2026-12-05', location: null, status: 'draft' },
];

const testDays: EventDay[] = [
  { day: 1, name: 'Opening Friday', date: '2026-07-10' },
  { day: 2, name: 'Big Saturday', date: '2026-07-11' },
  { day: 3, name: 'Closing Sunday', date: '2026-07-12' },
];

export const testEvent: EventItem = {
  id: 'event-1',
  name: 'Harbour Sound 2026',
  description: 'Three days of music',
  date: '2026-07-10',
  location: 'Pier 4, Rotterdam',
  attendeeCount: 1250,
  status: 'live',
  eventDays: testDays,
  timeZone: 'Europe/Amsterdam',
  dayCutoff: '06:00',
  allowsScanningOutsideDays: false,
  closedStatus: null,
};

/** An event without configured days (SPEC §2 'No Event Days'). */
export const testEventWithoutDays: EventItem = {
  id: 'event-2',
  name: 'Quay Jazz Night',
  description: '',
  date: '2026-08-01',
  location: 'Quay Stage',
  attendeeCount: 0,
  status: 'upcoming',
  eventDays: [],
  timeZone: 'Europe/Amsterdam',
  dayCutoff: '06:00',
  allowsScanningOutsideDays: false,
  closedStatus: null,
};

export const testDay: EventDay = testDays[1] ?? { day: 2, name: 'Big Saturday', date: '2026-07-11' };
