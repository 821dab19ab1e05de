/**
 * Plain rules of signing in (SPEC §2, §3, §5, §8), kept free of React and HTTP so they are tested
 * directly.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, RegisterRequest, type LoginRequest, type UserMe } from '@gatecheck/contract';
import type { z } from 'zod';
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
 * /organization-select.
 */
export function furthestStep(selection: Selection): AppPath {
  if (selection.day) return paths.scanner;
  if (selection.event) return paths.daySelect;
  if (selection.organization) return paths.eventSelect;
  return paths.organizationSelect;
}

/** The server's password policy, shown beside every new-password field before submit (contract PASSWORD_MIN_LENGTH). */
/** The English rule (SPEC texts; tests compare with it); screens show `t('auth.newPasswordRule')`. */
export const NEW_PASSWORD_RULE = `At least ${PASSWORD_MIN_LENGTH} characters.`;

/** The username rule of sign-up, in words (contract RegisterRequest.username). */
export const USERNAME_RULE = '3 to 40 letters, digits, dots, dashes or underscores.';

/** The message when the two new-password fields differ. */
export const PASSWORDS_DIFFER = 'The two passwords do not match.';

/**
 * A new password's problem under the contract's rule (RegisterRequest.password), in the active
 * language, or null when it is fine. The contract's zod messages are English ('Password must be at
 * least 8 characters.'); the screen words the issue's kind instead: too short (PASSWORD_MIN_LENGTH),
 * too long (PASSWORD_MAX_LENGTH), else unusable (ill-formed text).
 */
export function newPasswordProblem(password: string): string | null {
  const rule = RegisterRequest.shape.password.safeParse(password);
  return rule.success ? null : passwordIssueText(rule.error.issues[0]);
}

function passwordIssueText(issue: z.core.$ZodIssue | undefined): string {
  if (issue?.code === 'too_small') return t('auth.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
  if (issue?.code === 'too_big') return t('auth.passwordTooLong', { max: PASSWORD_MAX_LENGTH });
  return t('auth.passwordUnusable');
}

/**
 * Checks a new password and its confirmation before they are sent (reset, change): the contract's
 * rule (`newPasswordProblem`, e.g. 'Password must be at least 8 characters.'), then that both match.
 * @returns the message to show, or null when both are fine.
 */
export function validateNewPassword(newPassword: string, confirmation: string): string | null {
  const problem = newPasswordProblem(newPassword);
  if (problem !== null) return problem;
  return newPassword === confirmation ? null : t('auth.passwordsDiffer');
}

/** The sign-up form's fields (SPEC §7 register, country aside). */
export interface SignUpInput {
  name: string;
  username: string;
  email: string;
  password: string;
}

/**
 * Checks the sign-up form against the contract's RegisterRequest rules, in plain words.
 * @returns the first problem to show, or null.
 */
export function validateSignUp(input: SignUpInput): string | null {
  const fields = RegisterRequest.shape;
  if (!fields.name.safeParse(input.name).success) return t('auth.enterName');
  if (!fields.username.safeParse(input.username).success) return t('auth.usernameProblem', { rule: t('auth.usernameRule') });
  if (!fields.email.safeParse(input.email).success) return t('auth.enterEmail');
  return newPasswordProblem(input.password);
}
