import { DEVICE_ENROLLMENT_LINK, INVITATION_LINK, RESET_PASSWORD_LINK } from '@gatecheck/contract/paths';

/**
 * Route paths of the app: SPEC §2's, then the account screens the issue added (docs/decisions/018).
 * The only place route strings are spelled out; the reset screen's path is the mailed link's, from
 * the contract.
 */
export const paths = {
  home: '/',
  login: '/login',
  organizationSelect: '/organization-select',
  eventSelect: '/event-select',
  daySelect: '/day-select',
  scanner: '/scanner',
  forgotPassword: '/forgot-password',
  resetPassword: RESET_PASSWORD_LINK.path,
  signUp: '/sign-up',
  changePassword: '/change-password',
  /** A door device's set-up from its organizer's link (docs/decisions/107); the link's path, from the contract. */
  enroll: DEVICE_ENROLLMENT_LINK.path,
  /** Issue 11: attendee search, undo and the scan log, for supervisors and admins. */
  supervisor: '/supervisor',
  /** The live door of an event day (docs/decisions/117), supervisors and admins; build with `liveDoorPagePath` (features/live-door). */
  liveDoor: '/events/:eventId/live',
  /** The organizer's management area, for admins of the selected organization (docs/decisions/105, 106). */
  manage: '/manage',
  manageNewEvent: '/manage/events/new',
  /** Route patterns: build concrete paths with `managedEventPath` / `eventActivityPath`. */
  manageEvent: '/manage/events/:eventId',
  manageEventActivity: '/manage/events/:eventId/activity',
  /** An event's ticket types and tickets (docs/decisions/114): `eventTicketsPath`. */
  manageEventTickets: '/manage/events/:eventId/tickets',
  /** An event's check-in lists (docs/decisions/115): build with `eventListsPath`. */
  manageEventLists: '/manage/events/:eventId/lists',
  /** The door team of the selected organization: members, invitations (issue 30 item 5). */
  manageTeam: '/manage/team',
  /** The door devices of the selected organization: set-up QR codes, rename, move, revoke (docs/decisions/116). */
  manageDevices: '/manage/devices',
  /** The selected organization's own activity: its team's and devices' changes (docs/decisions/126). */
  manageActivity: '/manage/activity',
  /** The mailed invitation link's screen (`?token=`): accept it, or join with a new account. Open. */
  invitation: INVITATION_LINK.path,
} as const;

/** The management area's screen of one event. */
export function managedEventPath(eventId: string): string {
  return `/manage/events/${encodeURIComponent(eventId)}`;
}

/** The Activity page of one event in the management area. */
export function eventActivityPath(eventId: string): string {
  return `/manage/events/${encodeURIComponent(eventId)}/activity`;
}

/** The ticket types and tickets of one event in the management area. */
export function eventTicketsPath(eventId: string): string {
  return `/manage/events/${encodeURIComponent(eventId)}/tickets`;
}

/** The check-in lists of one event in the management area. */
export function eventListsPath(eventId: string): string {
  return `/manage/events/${encodeURIComponent(eventId)}/lists`;
}

export type AppPath = (typeof paths)[keyof typeof paths];
