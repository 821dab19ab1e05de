/**
 * Issue 10 item 9: screens rendered in German — the day select (German long-form dates, 'Tag 2'),
 * the scanner with its controls and a verdict (APPROVED → EINLASS, the card, the flash) — and the
 * language switch on a screen going back to the SPEC's English texts.
 */
import { apiPaths, type VerifyTicketResponse } from '@gatecheck/contract';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { chooseLanguage } from '@/lib/i18n/index.ts';
import { testEvent, testDay, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

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
