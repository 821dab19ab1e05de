/**
 * What the account screens say after a call (SPEC §8 authentication), in the active language
 * (issue 10 item 9, docs/decisions/050).
 *
 * English is SPEC §8 word for word: our own texts ('Session expired', 'Reset link sent', ...) and,
 * where SPEC says so, the server's own message. The server speaks English only, so in any other
 * language a server message is not shown as sent: its error `code` on that call picks our words
 * (`serverMessages.*`), e.g. `conflict` on sign-up → 'E-Mail oder Benutzername ist schon vergeben.';
 * a code with no words of ours falls back to the call's SPEC §8 fallback text, translated.
 */
import { activeLanguage, t } from '@/lib/i18n/index.ts';
import { serverMessageText, type ServerMessageKey } from '@/lib/server-messages.ts';

/**
 * Why a session ended without a sign-out (SPEC §8): the session check was refused, or native had no
 * token; or this door device was removed by its organizer (docs/decisions/108).
 */
export type SessionEndReason = 'session_expired' | 'no_native_token' | 'device_removed';

/** 'Session expired' / 'No token available for native platform' (SPEC §8) / 'This device was removed by your organizer', in the active language. */
export function sessionEndText(reason: SessionEndReason): string {
  if (reason === 'device_removed') return t('authMessages.deviceRemoved');
  return reason === 'session_expired' ? t('authMessages.sessionExpired') : t('authMessages.noNativeToken');
}

/** The account call a server message answers. */
export type AccountCall = 'login' | 'register' | 'changePassword' | 'forgotPassword' | 'resetPassword';

/** Our words for a server error code on an account call (the codes for any call are in lib/server-messages.ts). */
const WORDS_BY_CALL: Record<AccountCall, Partial<Record<string, ServerMessageKey>>> = {
  login: {},
  register: { conflict: 'serverMessages.accountTaken', forbidden: 'serverMessages.signUpClosed' },
  changePassword: { bad_request: 'serverMessages.wrongCurrentPassword' },
  forgotPassword: {},
  resetPassword: { bad_request: 'serverMessages.invalidResetLink' },
};

/**
 * The server's refusal of `call` to show, or undefined when the server said nothing usable (no
 * answer, a body not of the `{ code, message }` shape): then the caller shows its SPEC §8 fallback.
 * English: the server's message as sent. Other languages: our words for its code on that call, or
 * undefined when we have none (the fallback, translated, is better than English).
 */
export function serverRefusalText(error: unknown, call: AccountCall): string | undefined {
  return serverMessageText(error, WORDS_BY_CALL[call]);
}

/** A server's success message (sign-up: 'Account created. You can now sign in.'): as sent in English, our words otherwise. */
export function accountCreatedText(serverMessage: string): string {
  return activeLanguage() === 'en' ? serverMessage : t('serverMessages.accountCreated');
}
