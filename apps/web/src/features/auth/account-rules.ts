/**
 * Rules of the account screens (sign-up, reset and change password; docs/decisions/018), kept free
 * of React and HTTP so they are tested directly. Apart from auth-logic.ts because they parse with the
 * contract's RegisterRequest (classic zod), which the sign-in screen's first load does without
 * (issue 13, docs/decisions/061).
 */
import { RegisterRequest } from '@gatecheck/contract/auth';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@gatecheck/contract/sign-in';
import type { z } from 'zod';
import { t } from '@/lib/i18n/index.ts';

/**
 * The server's password policy in English (contract PASSWORD_MIN_LENGTH), as tests compare with it;
 * screens show it beside every new-password field as `t('auth.newPasswordRule')`.
 */
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
