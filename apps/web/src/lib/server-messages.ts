/**
 * A server's refusal in the active language (issue 10 item 9, docs/decisions/050). The server speaks
 * English only: its error body is `{ code, message }` (contract errors.ts). In English the message
 * is shown as sent (SPEC §8 "server message"); in any other language it is not shown, and the
 * error's `code` picks our words instead (`serverMessages.*` in lib/i18n), first from the caller's
 * own list (the same code means different things on different calls: `conflict` on sign-up is a
 * taken account, on undo a ticket not checked in), then from the list for any call.
 */
import { ApiError } from './api-client.ts';
import { activeLanguage, t } from './i18n/index.ts';

/** Keys of our words for server refusals. */
export type ServerMessageKey = `serverMessages.${
  | 'invalidCredentials'
  | 'rateLimited'
  | 'rateLimitedSeconds'
  | 'rateLimitedMinutes'
  | 'invalidInput'
  | 'accountTaken'
  | 'signUpClosed'
  | 'wrongCurrentPassword'
  | 'invalidResetLink'
  | 'forbidden'
  | 'notCheckedIn'
  | 'checkInChanged'
  | 'notFound'}`;

/** Our words for an error code on any call. */
const WORDS_FOR_ANY_CALL: Partial<Record<string, ServerMessageKey>> = {
  invalid_credentials: 'serverMessages.invalidCredentials',
  rate_limited: 'serverMessages.rateLimited',
  validation_failed: 'serverMessages.invalidInput',
  forbidden: 'serverMessages.forbidden',
};

/**
 * The refusal to show for `error`, or undefined when the server said nothing usable (no answer,
 * an answer not of the `{ code, message }` shape) or, outside English, when no words of ours fit its
 * code: then the caller shows its own fallback text.
 * @param wordsByCode the caller's words per error code, tried before the ones for any call
 */
export function serverMessageText(error: unknown, wordsByCode: Partial<Record<string, ServerMessageKey>> = {}): string | undefined {
  if (!(error instanceof ApiError) || error.status <= 0 || error.code === 'http_error' || error.code === 'invalid_response' || !error.message) {
    return undefined;
  }
  // Not the server's words but the app's own: an answer it could not read from a server that speaks
  // another contract (lib/api-compatibility.ts, decision 094), said in the active language.
  if (error.code === 'app_too_old') return t('apiVersion.appTooOld');
  if (error.code === 'server_too_old') return t('apiVersion.serverTooOld');
  if (activeLanguage() === 'en') return error.message;
  if (error.code === 'rate_limited' && error.retryAfterSeconds !== undefined) return waitText(error.retryAfterSeconds);
  const key = wordsByCode[error.code] ?? WORDS_FOR_ANY_CALL[error.code];
  return key === undefined ? undefined : t(key);
}

/** 'Too many attempts' with the wait, rounded as the server words it (seconds under 2 minutes). */
function waitText(seconds: number): string {
  return seconds < 120 ? t('serverMessages.rateLimitedSeconds', { count: seconds }) : t('serverMessages.rateLimitedMinutes', { count: Math.ceil(seconds / 60) });
}
