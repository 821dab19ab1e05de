/**
 * Issue 10 item 9: screens rendered in German — the day select (German long-form dates, 'Tag 2'),
 * the scanner with its controls and a verdict (APPROVED → EINLASS, the card, the flash) — and the
 * language switch on a screen going back to the SPEC's English texts. Then every screen in German,
 * with its messages (server refusals, form rules, denials), showing no English text of the app's
 * resources (`expectNoEnglish`).
 */
import { apiPaths, type VerifyTicketResponse } from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { chooseLanguage } from '@/lib/i18n/choice.ts';
import de from '@/lib/i18n/locales/de.json';
import enFirstScreen from '@/lib/i18n/locales/en.json';
import enScreens from '@/lib/i18n/locales/en-screens.json';
import { writeStoredUser } from '@/lib/stored-user.ts';
import { testEvent, testDay, testOrganization, testUser } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';
import { notify } from '@/lib/toast.ts';

test('the day select in German: heading, day labels, German dates, and the switch back to English', async () => {
  await chooseLanguage('de');
  const { user } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
  expect(screen.getByRole('heading', { level: 1, name: 'Tag wählen' })).toBeInTheDocument();
  const saturday = screen.getByRole('button', { name: /Big Saturday/ });
  expect(within(saturday).getByText('Tag 2')).toBeInTheDocument();
  expect(within(saturday).getByText('Samstag, 11. Juli 2026')).toBeInTheDocument();
  expect(screen.getByRole('radio', { name: 'Deutsch' })).toBeChecked();
  expect(document.documentElement.lang).toBe('de');

  await user.click(screen.getByRole('radio', { name: 'English' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Select Event Day' })).toBeInTheDocument();
  expect(within(screen.getByRole('button', { name: /Big Saturday/ })).getByText('Saturday, July 11, 2026')).toBeInTheDocument();
  expect(document.documentElement.lang).toBe('en');
});

test('switching the language dismisses the toasts on screen, whose words are the old language, but not a warning said once', async () => {
  const { user } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
  notify({ title: 'Could not load event days', variant: 'error' });
  // A warning said once (a ticket never checked) stays, in the words it came in.
  notify({ title: 'Ticket not checked', variant: 'error', isKeptOnLanguageChange: true });
  await waitFor(() => expect(toastTitles().sort()).toEqual(['Could not load event days', 'Ticket not checked']));
  await user.click(screen.getByRole('radio', { name: 'Deutsch' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Tag wählen' })).toBeInTheDocument();
  // Well before the toasts' own 4 s are up.
  await waitFor(() => expect(toastTitles()).toEqual(['Ticket not checked']), { timeout: 1_500 });
});

/** Toast titles on screen now, leaving out those on their way out. */
function toastTitles(): string[] {
  return Array.from(document.querySelectorAll('[data-sonner-toast][data-removed="false"] [data-title]'), (title) => title.textContent ?? '');
}

test('the scanner in German: controls, and a verdict on the card in German', async () => {
  server.use(http.post(apiUrl(apiPaths.verifyTicket), () => HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: 'Ada Lovelace', ticketType: 'VIP' })));
  await chooseLanguage('de');
  const { user } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: testDay } });
  expect(screen.getByText('Scannen für')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Scannen starten' }));
  expect(screen.getByRole('button', { name: 'Kamera starten' })).toBeInTheDocument();
  expect(screen.getByRole('switch', { name: 'Dauerscan' })).toHaveAttribute('aria-checked', 'false');
  expect(screen.getByRole('switch', { name: /Ton/ })).toBeInTheDocument();
  expect(screen.getByText('Noch kein Ticket geprüft')).toBeInTheDocument();

  await user.type(screen.getByLabelText('Oder Ticket-ID eingeben:'), 'GC-DE-1{Enter}');
  const card = await screen.findByRole('group', { name: 'Gültiges Ticket' });
  expect(within(card).getByText('EINLASS')).toBeInTheDocument();
  expect(within(card).getByText('Ticketart')).toBeInTheDocument();
  expect(within(card).getByText('Ada Lovelace')).toBeInTheDocument();
});

/**
 * Every English text of the app's resources that German says differently, cut at its
 * {{placeholders}} into the literal pieces long enough to be telling (6+ characters). A German screen
 * showing one of them has an English leftover: a literal not passed through t(), or words made
 * outside the web app (the contract, the server) shown as they came.
 */
function englishOnlyPieces(): string[] {
  const pieces = new Set<string>();
  const walk = (english: unknown, german: unknown) => {
    if (typeof english === 'string') {
      if (english === german) return;
      for (const piece of english.split(/\{\{\w+\}\}/)) if (piece.trim().length >= 6) pieces.add(piece.trim());
      return;
    }
    if (english && typeof english === 'object') {
      for (const [key, value] of Object.entries(english)) walk(value, (german as Record<string, unknown>)[key]);
    }
  };
  walk({ ...enFirstScreen, ...enScreens }, de);
  return [...pieces];
}

/** The visible text of the page plus every accessible-name attribute (aria-label, title, placeholder, alt). */
function pageWords(): string {
  const attributes = [...document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')].flatMap((element) =>
    ['aria-label', 'title', 'placeholder', 'alt'].map((name) => element.getAttribute(name) ?? ''),
  );
  return [document.body.textContent ?? '', ...attributes].join('\n');
}

/** Fails naming the English pieces found on the German page. */
function expectNoEnglish(): void {
  const words = pageWords();
  const found = englishOnlyPieces().filter((piece) => words.includes(piece));
  expect(found, `English on a German screen: ${found.join(' | ')}`).toEqual([]);
}

describe('every screen in German shows no English text (issue 10 item 9, decision 050)', () => {
  test('the check itself finds an English leftover', async () => {
    renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    expect(await screen.findByRole('heading', { name: 'Select Event Day' })).toBeInTheDocument();
    expect(() => expectNoEnglish()).toThrow(/Select Event Day/);
  });

  test('login: a session that expired, the required-fields rule and a refused sign-in', { timeout: 15_000 }, async () => {
    server.use(
      http.get(apiUrl(apiPaths.usersMe), () => errorResponse(401, { code: 'unauthenticated', message: 'expired' })),
      http.post(apiUrl(apiPaths.login), () => errorResponse(401, { code: 'invalid_credentials', message: 'Invalid email/username or password' })),
    );
    await chooseLanguage('de');
    await writeStoredUser(testUser);
    const { user } = renderApp({ route: '/login', user: null, checkSession: true });
    expect(await screen.findByText('Sitzung abgelaufen')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(screen.getByRole('alert')).toHaveTextContent('E-Mail/Benutzername und Passwort sind erforderlich.');
    expectNoEnglish();

    await user.type(screen.getByLabelText('E-Mail oder Benutzername'), 'ada');
    await user.type(screen.getByLabelText('Passwort'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText('E-Mail/Benutzername oder Passwort falsch')).toBeInTheDocument();
    expect(screen.getByText('Anmeldung fehlgeschlagen')).toBeInTheDocument();
    expectNoEnglish();
  });

  test('login: too many attempts says how long to wait, in German', async () => {
    server.use(
      http.post(apiUrl(apiPaths.login), () =>
        HttpResponse.json({ code: 'rate_limited', message: 'Too many attempts. Try again in 14 minutes.' }, { status: 429, headers: { 'Retry-After': '840' } }),
      ),
    );
    await chooseLanguage('de');
    const { user } = renderApp({ route: '/login', user: null });
    await user.type(screen.getByLabelText('E-Mail oder Benutzername'), 'ada');
    await user.type(screen.getByLabelText('Passwort'), 'some password');
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText('Zu viele Versuche. Bitte in 14 Minuten erneut versuchen.')).toBeInTheDocument();
    expectNoEnglish();
  });

  test('organizations and events: status badges and the reason a closed event cannot be chosen', async () => {
    await chooseLanguage('de');
    const { user } = renderApp({ route: '/organization-select' });
    await user.click(await screen.findByRole('button', { name: /Harbour Festivals/ }));
    const live = await screen.findByRole('button', { name: /Harbour Sound 2026/ });
    expect(within(live).getByText('Live')).toBeInTheDocument();
    expect(within(screen.getByRole('button', { name: /Quay Jazz Night/ })).getByText('Demnächst')).toBeInTheDocument();
    const draft = screen.getByRole('button', { name: /Winter Warm-up/ });
    expect(within(draft).getByText('Entwurf')).toBeInTheDocument();
    expect(within(draft).getByText('Entwurf — noch nicht zum Scannen geöffnet')).toBeInTheDocument();
    expectNoEnglish();
  });

  test("the day select and the scanner: the 'not today' warning and a DENIED verdict for a day that is not today", async () => {
    const dayDenial = {
      kind: 'not_event_day',
      selected: { day: 2, name: 'Big Saturday', date: '2026-07-11' },
      isPast: true,
      today: null,
      firstDate: '2026-07-10',
      lastDate: '2026-07-12',
    } as const;
    server.use(
      http.post(apiUrl(apiPaths.verifyTicket), () =>
        HttpResponse.json<VerifyTicketResponse>({ isValid: false, reason: 'not_event_day', message: 'Day 2 (Big Saturday) was Sat 11 Jul. The event runs Fri 10 Jul to Sun 12 Jul.', dayDenial: { ...dayDenial, selected: { ...dayDenial.selected } } }),
      ),
    );
    await chooseLanguage('de');
    const { user } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    expect(screen.getByRole('heading', { level: 1, name: 'Tag wählen' })).toBeInTheDocument();
    expectNoEnglish();

    await user.click(screen.getByRole('button', { name: /Big Saturday/ }));
    expect(await screen.findByText('Scannen für')).toBeInTheDocument();
    // The warning under the header (the device clock is past July 2026's days).
    expect(screen.getByText(/^Nicht heute — Tag 2 \(Big Saturday\) war am Sa\., 11\. Juli\./)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Scannen starten' }));
    await user.type(screen.getByLabelText('Oder Ticket-ID eingeben:'), 'GC-LATE{Enter}');
    const card = await screen.findByRole('group', { name: 'Ungültiges Ticket' });
    expect(within(card).getByText('ABGELEHNT')).toBeInTheDocument();
    expect(within(card).getByText('Tag 2 (Big Saturday) war am Sa., 11. Juli. Die Veranstaltung läuft von Fr., 10. Juli bis So., 12. Juli.')).toBeInTheDocument();
    expectNoEnglish();
  });

  test('change password: a new password too short, then a wrong current password', async () => {
    server.use(http.post(apiUrl(apiPaths.changePassword), () => errorResponse(400, { code: 'bad_request', message: 'Current password is incorrect.' })));
    await chooseLanguage('de');
    const { user } = renderApp({ route: '/change-password' });
    await user.type(screen.getByLabelText('Aktuelles Passwort'), 'old password');
    await user.type(screen.getByLabelText('Neues Passwort'), 'short');
    await user.type(screen.getByLabelText('Neues Passwort bestätigen'), 'short');
    await user.click(screen.getByRole('button', { name: 'Passwort ändern' }));
    expect(await screen.findByText('Das Passwort muss mindestens 8 Zeichen haben.')).toBeInTheDocument();
    expectNoEnglish();

    await user.clear(screen.getByLabelText('Neues Passwort'));
    await user.type(screen.getByLabelText('Neues Passwort'), 'a long new password');
    await user.clear(screen.getByLabelText('Neues Passwort bestätigen'));
    await user.type(screen.getByLabelText('Neues Passwort bestätigen'), 'a long new password');
    await user.click(screen.getByRole('button', { name: 'Passwort ändern' }));
    expect(await screen.findByText('Das aktuelle Passwort ist falsch.')).toBeInTheDocument();
    expectNoEnglish();
  });

  test('sign-up refused for a taken account, forgot password sent, a reset link without its token, and the 404', async () => {
    server.use(
      http.get(apiUrl(apiPaths.authOptions), () => HttpResponse.json({ isSignUpAllowed: true })),
      http.post(apiUrl(apiPaths.register), () => errorResponse(409, { code: 'conflict', message: 'This username is already taken.' })),
      http.post(apiUrl(apiPaths.forgotPassword), () => HttpResponse.json({ success: true, message: 'If an account exists for that email, a reset link has been sent.' })),
    );
    await chooseLanguage('de');
    const signUp = renderApp({ route: '/sign-up', user: null });
    await signUp.user.type(await screen.findByLabelText('Name'), 'Ada');
    await signUp.user.type(screen.getByLabelText('Benutzername'), 'ada');
    await signUp.user.type(screen.getByLabelText('E-Mail'), 'ada@example.com');
    await signUp.user.type(screen.getByLabelText('Passwort'), 'a long password');
    await signUp.user.click(screen.getByRole('button', { name: 'Registrieren' }));
    expect(await screen.findByText('Ein Konto mit dieser E-Mail oder diesem Benutzernamen gibt es schon.')).toBeInTheDocument();
    expectNoEnglish();
    signUp.unmount();

    const forgot = renderApp({ route: '/forgot-password', user: null });
    await forgot.user.type(screen.getByLabelText('E-Mail'), 'ada@example.com');
    await forgot.user.click(screen.getByRole('button', { name: 'Link senden' }));
    expect(await screen.findByText('Link zum Zurücksetzen gesendet')).toBeInTheDocument();
    expect(screen.getByText(/Falls es ein Konto für ada@example.com gibt/)).toBeInTheDocument();
    expectNoEnglish();
    forgot.unmount();

    const reset = renderApp({ route: '/reset-password', user: null });
    expect(screen.getByText(/Dieser Link ist unvollständig/)).toBeInTheDocument();
    expectNoEnglish();
    reset.unmount();

    renderApp({ route: '/no-such-page', user: null });
    expect(screen.getByText('Hoppla! Seite nicht gefunden')).toBeInTheDocument();
    expectNoEnglish();
  });
});
