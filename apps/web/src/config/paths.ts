import { DEVICE_ENROLLMENT_LINK, RESET_PASSWORD_LINK } from '@gatecheck/contract';

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
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
