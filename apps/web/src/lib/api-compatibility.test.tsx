/**
 * An app meets a server that speaks another contract (docs/decisions/094): every answer's version
 * headers are read by the one HTTP client, the strip says what to do in words, and an answer the app
 * cannot read is reported as that, not as a broken server.
 */
import { API_VERSION, API_VERSION_HEADER, apiPaths, OLDEST_APP_API_VERSION_HEADER, UserMe } from '@gatecheck/contract';
import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { ApiVersionNotice } from '@/components/api-version-notice.tsx';
import { chooseLanguage } from '@/lib/i18n/choice.ts';
import { wireUser } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { compatibilityOf, currentApiCompatibility } from './api-compatibility.ts';
import { ApiError, apiRequest } from './api-client.ts';
import { serverMessageText } from './server-messages.ts';
import { checkServerAddress, serverAddressMessage } from './server-address.ts';

/** Headers of a server that no longer serves apps of this app's version. */
const SERVER_AHEAD = { [API_VERSION_HEADER]: String(API_VERSION + 1), [OLDEST_APP_API_VERSION_HEADER]: String(API_VERSION + 1) };

test.each<{ headers: Record<string, string>; expected: string | undefined }>([
  { headers: {}, expected: undefined },
  { headers: { [API_VERSION_HEADER]: 'two' }, expected: undefined },
  { headers: { [API_VERSION_HEADER]: String(API_VERSION), [OLDEST_APP_API_VERSION_HEADER]: String(API_VERSION) }, expected: 'ok' },
  { headers: { [API_VERSION_HEADER]: String(API_VERSION + 1), [OLDEST_APP_API_VERSION_HEADER]: String(API_VERSION) }, expected: 'ok' },
  { headers: SERVER_AHEAD, expected: 'app_too_old' },
  // Only its own version named: it serves apps of that version.
  { headers: { [API_VERSION_HEADER]: String(API_VERSION + 1) }, expected: 'app_too_old' },
])('headers $headers: $expected', ({ headers, expected }) => {
  expect(compatibilityOf(new Headers(headers))).toBe(expected);
});

test('a server that no longer serves this app: the strip says to update the app, and an unreadable answer is app_too_old', async () => {
  render(<ApiVersionNotice />);
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  // A newer server renamed a field this app needs.
  server.use(http.get(apiUrl(apiPaths.usersMe), () => HttpResponse.json({ ...wireUser, id: undefined, userId: wireUser.id }, { headers: SERVER_AHEAD })));
  const failure = await apiRequest(apiPaths.usersMe, { schema: UserMe }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ApiError);
  expect(failure).toMatchObject({ code: 'app_too_old' });
  expect(currentApiCompatibility()).toBe('app_too_old');
  expect(await screen.findByRole('alert')).toHaveTextContent('This app is older than the Gatecheck server and may not read its answers. Update the app (in a browser: reload the page).');
});

test('an answer with fields this app does not know is read, and a server of this version shows no strip', async () => {
  render(<ApiVersionNotice />);
  server.use(
    http.get(apiUrl(apiPaths.usersMe), () =>
      HttpResponse.json({ ...wireUser, pronouns: 'she/her' }, { headers: { [API_VERSION_HEADER]: String(API_VERSION), [OLDEST_APP_API_VERSION_HEADER]: String(API_VERSION) } }),
    ),
  );
  await expect(apiRequest(apiPaths.usersMe, { schema: UserMe })).resolves.toEqual(wireUser);
  expect(currentApiCompatibility()).toBe('ok');
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('the native login refuses a server too new for this app, in words (German too)', async () => {
  server.use(http.get(apiUrl(apiPaths.authOptions), () => HttpResponse.json({ isSignUpAllowed: false }, { headers: SERVER_AHEAD })));
  const base = apiUrl('').replace(/\/$/, '');
  await expect(checkServerAddress(base)).resolves.toBe('app_too_old');
  expect(serverAddressMessage('app_too_old')).toBe('This app is too old for this Gatecheck server. Update the app, then sign in.');
  await chooseLanguage('de');
  expect(serverAddressMessage('app_too_old')).toBe('Diese App ist zu alt für diesen Gatecheck-Server. Aktualisiere die App und melde dich dann an.');
  // A server of this version is accepted.
  server.use(http.get(apiUrl(apiPaths.authOptions), () => HttpResponse.json({ isSignUpAllowed: false }, { headers: { [API_VERSION_HEADER]: String(API_VERSION) } })));
  await expect(checkServerAddress(base)).resolves.toBeNull();
});

test("a refusal for an answer the app could not read is said in the app's words, not the client's English message", async () => {
  const error = new ApiError(200, 'app_too_old', 'The server speaks another version of the Gatecheck API.');
  expect(serverMessageText(error)).toBe('This app is older than the Gatecheck server and may not read its answers. Update the app (in a browser: reload the page).');
  await chooseLanguage('de');
  expect(serverMessageText(error)).toBe('Diese App ist älter als der Gatecheck-Server und versteht seine Antworten womöglich nicht. Aktualisiere die App (im Browser: Seite neu laden).');
  expect(serverMessageText(new ApiError(200, 'server_too_old', 'x'))).toBe('Der Gatecheck-Server ist älter als diese App und versteht sie womöglich nicht. Bitte die Veranstaltungsleitung, den Server zu aktualisieren.');
});
