/** A session that ends mid-shift (SPEC §8 'Session expired'): any 401 after sign-in sends staff to sign in. */
import { apiPaths } from '@gatecheck/contract';
import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { expect, test } from 'vitest';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const unauthenticated = () => errorResponse(401, { code: 'unauthenticated', message: 'Sign in first' });

test('a ticket check answered 401 signs staff out with Session expired, and signing in again returns to the scanner', async () => {
  server.use(http.post(apiUrl(apiPaths.verifyTicket), unauthenticated));
  const { user, router } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: testDay } });
  await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
  await user.type(await screen.findByLabelText('Or enter ticket ID manually:'), 'GC-1{Enter}');

  expect(await screen.findByText('Session expired', { selector: '[role=status]' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
  await waitFor(() => expect(localStorage.getItem('user')).toBeNull());
  // The choices are kept for the next sign-in.
  expect(localStorage.getItem('selectedDay')).not.toBeNull();

  server.resetHandlers();
  await user.type(screen.getByLabelText('Email or Username'), 'demo');
  await user.type(screen.getByLabelText('Password'), 'demo-scanner');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
  // The scanner panel was open when the session ended: it is open again (decision 027).
  expect(await screen.findByLabelText('Or enter ticket ID manually:')).toBeInTheDocument();
  // The ticket in front of them was never checked: they are told, once.
  expect(await screen.findByText('GC-1 was not checked: your session had ended. Scan it again.')).toBeInTheDocument();
  expect(screen.getByText('Ticket not checked')).toBeInTheDocument();
});

test("a 401 to the door list or the offline outbox (calls outside the query cache) signs out at once", async () => {
  server.use(http.get(apiUrl(apiPaths.doorList), unauthenticated));
  const { router } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: testDay } });
  expect(await screen.findByText('Session expired', { selector: '[role=status]' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
});

test('the organizations list answered 401 signs staff out with Session expired', async () => {
  server.use(http.get(apiUrl(apiPaths.organizations), unauthenticated));
  const { router } = renderApp({ route: '/organization-select' });
  expect(await screen.findByText('Session expired', { selector: '[role=status]' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
  await waitFor(() => expect(localStorage.getItem('user')).toBeNull());
});

test('a 401 from the sign-in itself is Login failed, not Session expired', async () => {
  server.use(http.post(apiUrl(apiPaths.login), unauthenticated));
  const { user, router } = renderApp({ route: '/login', user: null });
  await user.type(await screen.findByLabelText('Email or Username'), 'demo');
  await user.type(screen.getByLabelText('Password'), 'wrong');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  expect(await screen.findByText('Login failed')).toBeInTheDocument();
  expect(screen.queryByText('Session expired')).not.toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
});
