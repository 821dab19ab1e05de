/**
 * API paths, relative to the API base ({host} in SPEC §7; `/api` on our server).
 * Both the client and the server build their URLs from these constants.
 */
export const API_PREFIX = '/api';

export const apiPaths = {
  usersMe: '/users/me',
  login: '/auth/login',
  register: '/auth/register',
  logout: '/auth/logout',
  changePassword: '/auth/change-password',
  forgotPassword: '/auth/forgot-password',
  resetPassword: '/auth/reset-password',
  /** Not in SPEC §7: whether sign-up is offered (docs/decisions/018). */
  authOptions: '/auth/options',
  organizations: '/organizations/membership',
  /** Fastify route pattern of an organization's events. */
  organizationEvents: '/organizations/membership/:organizationId',
  verifyTicket: '/tickets/verify',
  /** Not in SPEC §7: live counts of an event day (issue 10, docs/decisions/033). Fastify route pattern. */
  checkInCounts: '/events/:eventId/days/:day/counts',
  /** Not in SPEC §7: an event's check-in lists (docs/decisions/100), any member. Fastify route pattern. */
  checkInLists: '/events/:eventId/check-in-lists',
  /** One list (docs/decisions/111): PATCH to change, DELETE to remove (admin+). POST on `checkInLists` creates (admin+). */
  checkInList: '/events/:eventId/check-in-lists/:checkInListId',
  /** A supervisor's info scan (docs/decisions/111): the ticket's state on each list, nobody admitted. */
  infoScan: '/events/:eventId/info-scan',
  /** Issue 11, supervisor+ (Fastify route patterns; build concrete paths with supervisorPaths). */
  attendeeSearch: '/events/:eventId/attendees',
  manualCheckIn: '/events/:eventId/attendees/:ticketId/check-in',
  undoCheckIn: '/events/:eventId/attendees/:ticketId/undo-check-in',
  scanLog: '/events/:eventId/scan-log',
  /** Not in SPEC §7: the process is up (issue 14, docs/decisions/041). Public, for load balancers. */
  health: '/health',
  /** Not in SPEC §7: the database is reachable and migrated, and the server is not stopping (issue 14). Public. */
  ready: '/ready',
  /** Issue 12, offline check-in (docs/decisions/044, 045), any member of the event's organization. */
  doorList: '/events/:eventId/days/:day/door-list',
  offlineScans: '/events/:eventId/days/:day/offline-scans',
  offlineConflicts: '/events/:eventId/days/:day/conflicts',
  /** An event's ticket types with their check-in notes (docs/decisions/102): list (supervisor+), update one (admin). */
  ticketTypes: '/events/:eventId/ticket-types',
  ticketType: '/events/:eventId/ticket-types/:name',
  /** Issue 12: the event's public Ed25519 keys for signed tickets (docs/decisions/043). */
  signingKeys: '/events/:eventId/signing-keys',
} as const;

/** The concrete paths of the offline check-in calls (issue 12) for an event day. */
export const offlinePaths = {
  doorList: (eventId: string, day: number) => `/events/${encodeURIComponent(eventId)}/days/${day}/door-list`,
  offlineScans: (eventId: string, day: number) => `/events/${encodeURIComponent(eventId)}/days/${day}/offline-scans`,
  offlineConflicts: (eventId: string, day: number) => `/events/${encodeURIComponent(eventId)}/days/${day}/conflicts`,
  signingKeys: (eventId: string) => `/events/${encodeURIComponent(eventId)}/signing-keys`,
} as const;

/** The concrete paths of the supervisor calls (issue 11) for an event and ticket. */
export const supervisorPaths = {
  attendeeSearch: (eventId: string) => `/events/${encodeURIComponent(eventId)}/attendees`,
  manualCheckIn: (eventId: string, ticketId: string) => `/events/${encodeURIComponent(eventId)}/attendees/${encodeURIComponent(ticketId)}/check-in`,
  undoCheckIn: (eventId: string, ticketId: string) => `/events/${encodeURIComponent(eventId)}/attendees/${encodeURIComponent(ticketId)}/undo-check-in`,
  scanLog: (eventId: string) => `/events/${encodeURIComponent(eventId)}/scan-log`,
} as const;

/** The concrete path of an organization's events list. */
export function organizationEventsPath(organizationId: string): string {
  return `${apiPaths.organizations}/${encodeURIComponent(organizationId)}`;
}

/** The concrete path of an event day's live counts (`apiPaths.checkInCounts`). */
export function checkInCountsPath(eventId: string, day: number): string {
  return `/events/${encodeURIComponent(eventId)}/days/${day}/counts`;
}

/** The concrete path of one check-in list (`apiPaths.checkInList`). */
export function checkInListPath(eventId: string, checkInListId: string): string {
  return `/events/${encodeURIComponent(eventId)}/check-in-lists/${encodeURIComponent(checkInListId)}`;
}

/** The concrete path of an event's info scan (`apiPaths.infoScan`). */
export function infoScanPath(eventId: string): string {
  return `/events/${encodeURIComponent(eventId)}/info-scan`;
}

/** The concrete path of an event's check-in lists (`apiPaths.checkInLists`). */
export function checkInListsPath(eventId: string): string {
  return `/events/${encodeURIComponent(eventId)}/check-in-lists`;
}

/**
 * The web app's route that the mailed password-reset link opens, `?token=` + the token
 * (docs/decisions/018). The server builds the link from its PUBLIC_URL and this path; the web app
 * serves the screen at the same path.
 */
export const RESET_PASSWORD_LINK = { path: '/reset-password', tokenParam: 'token' } as const;

/**
 * The web app's route the mailed invitation link opens, `?token=` + the token. The server builds the
 * link from its PUBLIC_URL and this path; the web app serves the screen at the same path. Here, with
 * no schema beside it, so the web's route table does not pull the team's zod schemas into the
 * sign-in screen's first load (docs/decisions/098).
 */
export const INVITATION_LINK = { path: '/invitation', tokenParam: 'token' } as const;

/**
 * The link an enrollment's QR code holds: the server's public address, this path, and the token in
 * the fragment (`#token=…`), which browsers and proxies do not send or log. The web app serves the
 * path; the native app takes the server address and the token from the same text. Here, beside the
 * other links, with no schema next to it (docs/decisions/098).
 */
export const DEVICE_ENROLLMENT_LINK = { path: '/enroll', tokenParam: 'token' } as const;

/**
 * The server address and token in an enrollment link (`DEVICE_ENROLLMENT_LINK`), or null when
 * `text` is not one. The server address is the link's origin plus any path before `/enroll`.
 */
export function parseEnrollmentLink(text: string): { serverUrl: string; token: string } | null {
  // A regular expression, not URL: the contract runs where no URL class is typed (no DOM lib).
  const match = /^(https?:\/\/[^\s/?#]+(?:\/[^\s?#]*?)?)\/enroll(?:\?[^\s#]*)?#(?:[^\s#]*&)?token=([A-Za-z0-9_-]{43})(?:&[^\s#]*)?$/i.exec(text.trim());
  if (!match?.[1] || !match[2]) return null;
  return { serverUrl: match[1], token: match[2] };
}
