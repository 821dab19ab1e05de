import { apiPaths, type LoginRequest } from '@gatecheck/contract';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { organizationQueries } from '@/features/organizations/api.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { lazyQueryClient } from '@/lib/query-client-slot.ts';
import { TEST_TOKEN, testDay, testEvent, testOrganization, wireUser } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

async function signIn(user: ReturnType<typeof renderApp>['user'], identifier: string, password: string) {
  await user.type(await screen.findByLabelText('Email or Username'), identifier);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('the login screen (SPEC §2)', () => {
  test('shows the scanner name, the subtitle, both required fields and Sign In', async () => {
    renderApp({ route: '/login', user: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(screen.getByText('Sign in to start scanning tickets')).toBeInTheDocument();
    const identifier = screen.getByLabelText('Email or Username');
    expect(identifier).toHaveAttribute('type', 'text');
    expect(identifier).toBeRequired();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toBeRequired();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  test('/ redirects to /login', async () => {
    const { router } = renderApp({ route: '/', user: null });
    expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  test('staff who leave a field empty are told both are required and nothing is sent', async () => {
    let called = false;
    server.use(
      http.post(apiUrl(apiPaths.login), () => {
        called = true;
        return HttpResponse.json({ token: TEST_TOKEN });
      }),
    );
    const { user } = renderApp({ route: '/login', user: null });
    await user.type(await screen.findByLabelText('Email or Username'), 'demo');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email/username and password are required.');
    await user.clear(screen.getByLabelText('Email or Username'));
    await user.type(screen.getByLabelText('Password'), 'demo-scanner');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Email/username and password are required.');
    expect(called).toBe(false);
  });

  test('the button reads Signing in... while the login call runs', async () => {
    let release: () => void = () => {};
    server.use(
      http.post(apiUrl(apiPaths.login), async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return HttpResponse.json({ token: TEST_TOKEN });
      }),
    );
    const { user } = renderApp({ route: '/login', user: null });
    await signIn(user, 'demo', 'demo-scanner');
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    release();
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
  });

  test('an email identifier is sent as the email, with useCookie on the web', async () => {
    let body: LoginRequest | undefined;
    server.use(
      http.post(apiUrl(apiPaths.login), async ({ request }) => {
        body = (await request.json()) as LoginRequest;
        return HttpResponse.json({ token: TEST_TOKEN });
      }),
    );
    const { user } = renderApp({ route: '/login', user: null });
    await signIn(user, 'demo@example.com', 'demo-scanner');
    await screen.findByRole('heading', { name: 'Choose Your Organization' });
    expect(body).toEqual({ email: 'demo@example.com', password: 'demo-scanner', useCookie: true });
  });

  test('a rejected login toasts Login failed with the server message', async () => {
    server.use(http.post(apiUrl(apiPaths.login), () => errorResponse(401, { code: 'invalid_credentials', message: 'Invalid email/username or password' })));
    const { user, router } = renderApp({ route: '/login', user: null });
    await signIn(user, 'demo', 'wrong-password');
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid email/username or password')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  test('a login failing without a server message toasts Please check your credentials', async () => {
    server.use(http.post(apiUrl(apiPaths.login), () => HttpResponse.error()));
    const { user } = renderApp({ route: '/login', user: null });
    await signIn(user, 'demo', 'demo-scanner');
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('Please check your credentials')).toBeInTheDocument();
  });
});

describe('the sign-in screen without TanStack Query (docs/decisions/098)', () => {
  test('signs in before the query cache has loaded; sending the sign-in starts loading it, and the next screen waits for it', async () => {
    server.use(http.get(apiUrl(apiPaths.authOptions), () => HttpResponse.json({ isSignUpAllowed: true })));
    let loads = 0;
    let arrive: () => void = () => undefined;
    const queryClientSlot = lazyQueryClient(() => {
      loads += 1;
      return new Promise((resolve) => {
        arrive = () => resolve(createQueryClient({ retry: false }));
      });
    });
    const { user, router } = renderApp({ route: '/login', user: null, queryClientSlot });
    // The whole screen works without it, the server's 'Sign up' included.
    expect(await screen.findByRole('link', { name: 'Sign up' })).toBeInTheDocument();
    expect(loads).toBe(0);

    await signIn(user, 'demo', 'demo-scanner');
    expect(loads).toBe(1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/organization-select'));
    // The choice screen needs the query cache: it shows once the cache has loaded, not before.
    expect(screen.queryByRole('heading', { name: 'Choose Your Organization' })).not.toBeInTheDocument();
    arrive();
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
    expect(loads).toBe(1);
  });
});

describe('after signing in, staff land on the furthest step already chosen (SPEC §2)', () => {
  test('nothing chosen: organization selection', async () => {
    const { user, router } = renderApp({ route: '/login', user: null });
    await signIn(user, 'demo', 'demo-scanner');
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/organization-select');
  });

  test('an organization chosen: event selection', async () => {
    const { user, router } = renderApp({ route: '/login', user: null, selection: { organization: testOrganization } });
    await signIn(user, 'demo', 'demo-scanner');
    expect(await screen.findByRole('heading', { name: 'Choose Your Event' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/event-select');
  });

  test('an event chosen: day selection', async () => {
    const { user, router } = renderApp({ route: '/login', user: null, selection: { organization: testOrganization, event: testEvent } });
    await signIn(user, 'demo', 'demo-scanner');
    expect(await screen.findByRole('heading', { name: 'Select Event Day' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/day-select');
  });

  test('a day chosen: the scanner', async () => {
    const { user, router } = renderApp({ route: '/login', user: null, selection: { organization: testOrganization, event: testEvent, day: testDay } });
    await signIn(user, 'demo', 'demo-scanner');
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
  });

  test('an already signed-in visitor of /login is sent on as well', async () => {
    const { router } = renderApp({ route: '/login', selection: { organization: testOrganization } });
    expect(await screen.findByRole('heading', { name: 'Choose Your Event' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/event-select');
  });

  test('the stored user is confirmed with the server on start before moving on', async () => {
    server.use(http.get(apiUrl(apiPaths.usersMe), () => HttpResponse.json({ ...wireUser, displayName: null })));
    localStorage.setItem('user', JSON.stringify({ id: 'user-1', name: 'x', username: 'demo', email: 'demo@example.com', country: 'NL', joinedAt: '2026-01-01T00:00:00.000Z', token: TEST_TOKEN, settings: { emailNotifications: false, smsNotifications: false, marketingEmails: false, eventReminders: true } }));
    const { router } = renderApp({ route: '/login', user: null, checkSession: true });
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/organization-select');
  });
});

describe('the next user on the same device starts from their own choices', () => {
  const otherOrganization = { ...testOrganization, id: 'org-of-someone-else', name: 'Someone Else Events' };

  test('a stored organization the user does not belong to is cleared with its event and day: organization selection', async () => {
    const { user, router } = renderApp({ route: '/login', user: null, selection: { organization: otherOrganization, event: testEvent, day: testDay } });
    await signIn(user, 'demo', 'demo-scanner');
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/organization-select');
    expect(localStorage.getItem('selectedOrganization')).toBeNull();
    expect(localStorage.getItem('selectedEvent')).toBeNull();
    expect(localStorage.getItem('selectedDay')).toBeNull();
  });

  test('a stored organization the user belongs to is kept: the scanner, after checking the memberships', async () => {
    let membershipCalls = 0;
    server.use(
      http.get(apiUrl(apiPaths.organizations), () => {
        membershipCalls++;
        return HttpResponse.json([{ _id: 'org-1', name: 'Harbour Festivals', description: null, role: 'staff', activeEvents: [] }]);
      }),
    );
    const { user, router } = renderApp({ route: '/login', user: null, selection: { organization: testOrganization, event: testEvent, day: testDay } });
    await signIn(user, 'demo', 'demo-scanner');
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
    expect(membershipCalls).toBe(1);
    expect(localStorage.getItem('selectedDay')).not.toBeNull();
  });

  test('the previous user\'s cached lists are not shown after signing in', async () => {
    const queryClient = createQueryClient({ retry: false });
    queryClient.setQueryData(organizationQueries.list().queryKey, [otherOrganization]);
    const { user } = renderApp({ route: '/login', user: null, queryClient });
    await signIn(user, 'demo', 'demo-scanner');
    await screen.findByRole('heading', { name: 'Choose Your Organization' });
    expect(screen.queryByText('Someone Else Events')).not.toBeInTheDocument();
    expect(await screen.findByText('Harbour Festivals')).toBeInTheDocument();
  });
});
