/**
 * Plain rules of signing in (SPEC §2, §3, §5, §8), kept free of React and HTTP so they are tested
 * directly. The rules of the account screens (sign-up, new passwords) are in account-rules.ts, off
 * the first load (they parse with the contract's classic-zod RegisterRequest; issue 13).
 */
import type { LoginRequest } from '@gatecheck/contract/auth';
import type { UserMe } from '@gatecheck/contract/users';
import { paths, type AppPath } from '@/config/paths.ts';
import type { User, UserSettings } from '@/lib/entities.ts';
import type { Selection } from '@/lib/selection.ts';
import { t } from '@/lib/i18n/index.ts';
import { serverRefusalText } from './auth-messages.ts';

/** The SPEC §5 message when an identifier or the password is missing, else null. */
export function validateLogin(identifier: string, password: string): string | null {
  return identifier.trim() === '' || password === '' ? t('auth.loginRequired') : null;
}

/**
 * The POST /auth/login body (SPEC §5, §7). The identifier goes in `email`, which holds an email or a
 * username: an identifier with an '@' is thereby sent as the email, one without as the username the
 * server also accepts there. The web asks for the HttpOnly session cookie (`useCookie: true`); native
 * relies on the returned bearer token only.
 */
export function toLoginRequest(identifier: string, password: string, isNative: boolean): LoginRequest {
  const email = identifier.trim();
  return isNative ? { email, password } : { email, password, useCookie: true };
}

/** True when the identifier is an email address rather than a username (SPEC §5 '@' rule). */
export function isEmailIdentifier(identifier: string): boolean {
  return identifier.includes('@');
}

/**
 * The description of the 'Login failed' toast: the server's message, else 'Please check your
 * credentials' (SPEC §8); in another language our words for the server's error code (auth-messages.ts).
 */
export function loginFailureDescription(error: unknown): string {
  return serverRefusalText(error, 'login') ?? t('auth.checkCredentials');
}

/** SPEC §3 settings defaults. */
const DEFAULT_SETTINGS: UserSettings = {
  emailNotifications: false,
  smsNotifications: false,
  marketingEmails: false,
  eventReminders: true,
};

/**
 * Maps GET /users/me to the local user (SPEC §3): name from displayName (default 'No Name'),
 * country (default 'Unknown'), joinedAt from createdAt (default now, ISO 8601), settings defaults.
 */
export function toUser(me: UserMe, token: string | undefined, now: Date = new Date()): User {
  return {
    id: me.id,
    name: me.displayName || 'No Name',
    username: me.username,
    email: me.email,
    country: me.country || 'Unknown',
    joinedAt: me.createdAt || now.toISOString(),
    ...(token ? { token } : {}),
    settings: { ...DEFAULT_SETTINGS, ...stripNullish(me.settings ?? {}) },
  };
}

function stripNullish(settings: Partial<Record<keyof UserSettings, boolean | undefined>>): Partial<UserSettings> {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => typeof value === 'boolean'));
}

/**
 * Where a signed-in user goes (SPEC §2 /login): the furthest step already chosen — /scanner if a day
 * is stored, else /day-select if an event, else /event-select if an organization, else
 * /organization-select. A stored day whose check-in list is still to choose (`checkInList` null,
 * docs/decisions/109) resumes at that choice, on /day-select.
 */
export function furthestStep(selection: Selection): AppPath {
  if (selection.day) return selection.day.checkInList === null ? paths.daySelect : paths.scanner;
  if (selection.event) return paths.daySelect;
  if (selection.organization) return paths.eventSelect;
  return paths.organizationSelect;
}
