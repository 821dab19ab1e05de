/**
 * The native login screen (issue 9 item 5) on Capacitor's real Android bridge: the 'Server' field,
 * its checks, and sign-in with a bearer token stored in device Preferences (the stand-in's).
 */
import { standIn } from '@/test/android-bridge-install.ts';
import { apiPaths, type LoginRequest } from '@gatecheck/contract';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { currentApiBaseUrl, serverAddressMessage } from '@/lib/server-address.ts';
import { TEST_TOKEN, wireUser } from '@/test/fixtures.ts';
import { server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const prefs = (key: string) => localStorage.getItem(`${standIn().options.prefsPrefix}${key}`);

test('the native login asks for the server; http off a private network is refused before any call', async () => {
  const { user } = renderApp({ route: '/login', user: null });
  const field = await screen.findByLabelText('Server');
  expect(field).toHaveValue('');
  await user.type(screen.getByLabelText('Email or Username'), 'demo');
  await user.type(screen.getByLabelText('Password'), 'demo-scanner');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  expect(await screen.findByText(serverAddressMessage('empty'))).toBeInTheDocument();
  await user.type(field, 'http://gate.example.com');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  expect(await screen.findByText(serverAddressMessage('insecure'))).toBeInTheDocument();
  expect(prefs('serverUrl')).toBeNull();
});

test('a server that is not Gatecheck gets a clear message and no sign-in', async () => {
  server.use(http.get(`https://nothing.example.com/api${apiPaths.authOptions}`, () => new HttpResponse('Not Found', { status: 404 })));
  const { user } = renderApp({ route: '/login', user: null });
  await user.type(await screen.findByLabelText('Server'), 'nothing.example.com');
  await user.type(screen.getByLabelText('Email or Username'), 'demo');
  await user.type(screen.getByLabelText('Password'), 'demo-scanner');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  expect(await screen.findByText(serverAddressMessage('unreachable'))).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
});

test('a good server is remembered in Preferences and sign-in there uses a bearer token, no cookie', async () => {
  const base = 'https://gate.example.com/api';
  let loginBody: LoginRequest | undefined;
  let authorization: string | null = null;
  server.use(
    http.get(`${base}${apiPaths.authOptions}`, () => HttpResponse.json({ isSignUpAllowed: false })),
    http.post(`${base}${apiPaths.login}`, async ({ request }) => {
      loginBody = (await request.json()) as LoginRequest;
      return HttpResponse.json({ token: TEST_TOKEN });
    }),
    http.get(`${base}${apiPaths.usersMe}`, ({ request }) => {
      authorization = request.headers.get('Authorization');
      return HttpResponse.json(wireUser);
    }),
    http.get(`${base}${apiPaths.organizations}`, () => HttpResponse.json([])),
  );
  const { user, router } = renderApp({ route: '/login', user: null });
  await user.type(await screen.findByLabelText('Server'), 'https://gate.example.com');
  await user.type(screen.getByLabelText('Email or Username'), 'demo');
  await user.type(screen.getByLabelText('Password'), 'demo-scanner');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/organization-select'));
  expect(loginBody).toEqual({ email: 'demo', password: 'demo-scanner' });
  expect(authorization).toBe(`Bearer ${TEST_TOKEN}`);
  expect(prefs('serverUrl')).toBe(base);
  expect(JSON.parse(prefs('user') ?? 'null')).toMatchObject({ token: TEST_TOKEN });
  expect(localStorage.getItem('user')).toBeNull();
  expect(currentApiBaseUrl()).toBe(base);
  // Preferences crossed the bridge: the plugin's real JS posted the calls.
  expect(standIn().calls.some((call) => call.pluginId === 'Preferences' && call.methodName === 'set' && call.options.key === 'serverUrl')).toBe(true);
});

test('an enrollment link pasted into Server sets the phone up with no account: the link names the server, the device token is stored', async () => {
  const base = 'https://gate.example.com/api';
  const token = 'E'.repeat(43);
  let redeemed: unknown;
  server.use(
    http.get(`${base}${apiPaths.authOptions}`, () => HttpResponse.json({ isSignUpAllowed: false })),
    http.post(`${base}/devices/enroll`, async ({ request }) => {
      redeemed = await request.json();
      return HttpResponse.json({ token: 'device-token', expiresAt: '2027-01-01T00:00:00.000Z', device: { id: 'd1', name: 'North gate 2', organizationId: 'o1', eventId: 'e1' } });
    }),
    http.get(`${base}${apiPaths.usersMe}`, ({ request }) =>
      request.headers.get('Authorization') === 'Bearer device-token' ? HttpResponse.json({ ...wireUser, displayName: 'North gate 2' }) : new HttpResponse(null, { status: 401 }),
    ),
    http.get(`${base}${apiPaths.organizations}`, () => HttpResponse.json([])),
  );
  const { user, router } = renderApp({ route: '/login', user: null });
  await user.type(await screen.findByLabelText('Server'), `https://gate.example.com/enroll#token=${token}`);
  await user.click(screen.getByRole('button', { name: 'Set up this device' }));
  await user.click(await screen.findByRole('button', { name: 'Set up this device' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/organization-select'));
  expect(redeemed).toEqual({ token, useCookie: false });
  expect(prefs('serverUrl')).toBe(base);
  expect(JSON.parse(prefs('user') ?? 'null')).toMatchObject({ token: 'device-token', name: 'North gate 2' });
});

test('the first screen reads the organizer’s setup QR code with ML Kit and goes on to set the device up; another code is refused in words', async () => {
  const { user, router } = renderApp({ route: '/login', user: null });
  // A code that is no setup link: said, nothing else happens.
  standIn().options.scanResult = 'GA-0001-TICKET';
  await user.click(await screen.findByRole('button', { name: 'Scan setup QR code' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('This QR code is not a Gatecheck setup code.');
  expect(router.state.location.pathname).toBe('/login');
  // Closed without a code: no message.
  delete standIn().options.scanResult;
  await user.click(screen.getByRole('button', { name: 'Scan setup QR code' }));
  await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());

  const link = `https://gate.example.com/enroll#token=${'T'.repeat(43)}`;
  standIn().options.scanResult = link;
  await user.click(screen.getByRole('button', { name: 'Scan setup QR code' }));
  expect(await screen.findByRole('button', { name: 'Set up this device' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/enroll');
  expect(router.state.location.state).toEqual({ link });
  const scans = standIn().calls.filter((call) => call.pluginId === 'BarcodeScanner' && call.methodName === 'scan');
  expect(scans.map((call) => call.options)).toEqual([{ formats: ['QR_CODE'] }, { formats: ['QR_CODE'] }, { formats: ['QR_CODE'] }]);
});
