/**
 * The account calls of SPEC §7 with their SPEC §8 messages: sign-up (with the IP lookup of the
 * country), forgot, reset and change password (docs/decisions/018). Apart from api.ts so the sign-in
 * screen's first load carries neither these calls nor the classic-zod schemas they parse with
 * (issue 13, docs/decisions/061).
 */
import { FlagMessageResponse, type ChangePasswordRequest, type ResetPasswordRequest } from '@gatecheck/contract/auth';
import { apiPaths } from '@gatecheck/contract/paths';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { IP_LOOKUP_TIMEOUT_MS } from '@/config/constants.ts';
import { env } from '@/config/env.ts';
import { ApiError, apiRequest } from '@/lib/api-client.ts';
import { activeLanguage, t } from '@/lib/i18n/index.ts';
import { fetchAuthOptions } from './api.ts';
import { serverRefusalText, type AccountCall } from './auth-messages.ts';

const IpLookupAnswer = z.object({
  country_code: z.string().optional(),
  countryCode: z.string().optional(),
  country: z.string().optional(),
});

/**
 * Two-letter country code of the visitor from a third-party IP lookup (SPEC §7), for sign-up.
 * Accepts answers with `country_code`, `countryCode` or `country`. '' when the lookup is off
 * (`url` undefined, the default unless `VITE_IP_LOOKUP_URL` is set), fails, times out after
 * `timeoutMs` (default 3000 ms) or answers anything else.
 */
export async function lookupCountryCode(url: string | undefined = env.ipLookupUrl, timeoutMs: number = IP_LOOKUP_TIMEOUT_MS): Promise<string> {
  if (!url) return '';
  try {
    const response = await fetch(url, { credentials: 'omit', signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return '';
    const answer = IpLookupAnswer.safeParse(await response.json());
    if (!answer.success) return '';
    const code = [answer.data.country_code, answer.data.countryCode, answer.data.country].find((value) => value && /^[A-Za-z]{2}$/.test(value));
    return code ? code.toUpperCase() : '';
  } catch {
    return '';
  }
}

/**
 * SPEC §7 sign-up: POST /auth/register with name, username, email, password and the country code
 * from `lookupCountryCode` ('' when unknown).
 *
 * @throws {Error} with the server's message (in another language: our words for its code),
 *   otherwise 'Signup failed' (SPEC §8), in the active language
 */
export async function register(
  input: { name: string; username: string; email: string; password: string },
  options: { ipLookupUrl?: string } = {},
): Promise<FlagMessageResponse> {
  const country = await lookupCountryCode(options.ipLookupUrl ?? env.ipLookupUrl);
  try {
    const answer = await apiRequest(apiPaths.register, { method: 'POST', body: { ...input, country }, schema: FlagMessageResponse, token: null });
    if (!answer.success) throw new ApiError(200, 'rejected', answer.message);
    return answer;
  } catch (error) {
    throw new Error(serverRefusalText(error, 'register') ?? t('authMessages.signupFailed'));
  }
}

/** The outcome of a password call: a success flag and the SPEC §8 message to show, in the active language. */
export interface PasswordOutcome {
  success: boolean;
  message: string;
}

const OptionalFlagMessage = FlagMessageResponse.partial().optional();

/**
 * SPEC §7 change password (bearer token). Messages (SPEC §8): 'Password changed successfully'; on
 * failure the server's message, otherwise 'Failed to change password'. Never throws.
 */
export async function changePassword(input: ChangePasswordRequest): Promise<PasswordOutcome> {
  try {
    const answer = await apiRequest(apiPaths.changePassword, { method: 'POST', body: input, schema: OptionalFlagMessage });
    if (answer?.success === false) return { success: false, message: flagRefusalText(answer.message) ?? t('authMessages.changeFailed') };
    return { success: true, message: t('authMessages.passwordChanged') };
  } catch (error) {
    return { success: false, message: serverRefusalText(error, 'changePassword') ?? t('authMessages.changeFailed') };
  }
}

/**
 * SPEC §7 forgot password. Messages (SPEC §8): 'Reset link sent'; on failure the response text,
 * otherwise 'Failed to send reset email.' (the server refused without a text) or 'Unable to send
 * reset email.' (no answer). Never throws.
 */
export async function forgotPassword(email: string): Promise<PasswordOutcome> {
  return flagMessageCall(apiPaths.forgotPassword, { email }, 'forgotPassword', {
    success: t('authMessages.resetLinkSent'),
    refused: t('authMessages.resetEmailFailed'),
    unreachable: t('authMessages.resetEmailUnreachable'),
  });
}

/**
 * SPEC §7 reset password with the emailed token. Messages (SPEC §8): 'Password updated
 * successfully'; on failure the response text, otherwise 'Password reset failed' (refused without a
 * text) or 'Unable to reset password' (no answer). Never throws.
 */
export async function resetPassword(input: ResetPasswordRequest): Promise<PasswordOutcome> {
  return flagMessageCall(apiPaths.resetPassword, input, 'resetPassword', {
    success: t('authMessages.passwordUpdated'),
    refused: t('authMessages.resetFailed'),
    unreachable: t('authMessages.resetUnreachable'),
  });
}

async function flagMessageCall(
  path: string,
  body: unknown,
  call: AccountCall,
  messages: { success: string; refused: string; unreachable: string },
): Promise<PasswordOutcome> {
  try {
    const answer = await apiRequest(path, { method: 'POST', body, schema: OptionalFlagMessage, token: null });
    if (answer?.success === false) return { success: false, message: flagRefusalText(answer.message) ?? messages.refused };
    return { success: true, message: messages.success };
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) return { success: false, message: messages.unreachable };
    return { success: false, message: serverRefusalText(error, call) ?? messages.refused };
  }
}

/**
 * The text of a 2xx `{ success: false, message }` answer (a server other than ours): shown as sent
 * in English (SPEC §8 "the response text"); it has no code to word it by, so other languages show
 * the call's fallback.
 */
function flagRefusalText(message: string | undefined): string | undefined {
  return message && activeLanguage() === 'en' ? message : undefined;
}

/** Sign-up (SPEC §7 register); its error's message is the SPEC §8 text to show. */
export function useRegisterMutation() {
  return useMutation({ mutationFn: (input: { name: string; username: string; email: string; password: string }) => register(input) });
}

/** Forgot password (SPEC §7); the outcome carries the SPEC §8 text. */
export function useForgotPasswordMutation() {
  return useMutation({ mutationFn: forgotPassword });
}

/** Reset password with the mailed token (SPEC §7); the outcome carries the SPEC §8 text. */
export function useResetPasswordMutation() {
  return useMutation({ mutationFn: resetPassword });
}

/** Change password while signed in (SPEC §7); the outcome carries the SPEC §8 text. */
export function useChangePasswordMutation() {
  return useMutation({ mutationFn: changePassword });
}

/** How long the server's sign-up setting is trusted before it is asked again, in ms. */
const AUTH_OPTIONS_STALE_MS = 5 * 60 * 1000;

export const authOptionsQueries = {
  all: () => ['auth-options'] as const,
  /**
   * GET /auth/options: whether the server offers sign-up (`isSignUpAllowed`, docs/decisions/018).
   * The screens treat a failed call as "no sign-up", the server's default.
   */
  current: () =>
    queryOptions({
      queryKey: [...authOptionsQueries.all(), 'current'] as const,
      queryFn: ({ signal }) => fetchAuthOptions(signal),
      staleTime: AUTH_OPTIONS_STALE_MS,
    }),
};
