/**
 * /enroll (docs/decisions/107, 116): the organizer's link sets this device up with one tap, no
 * password; whoever holds it then gives their name for the shift, and it reports its state; a used
 * or broken link says so. The server is MSW, bodies parsed by the contract.
 */
import {
  apiPaths,
  deviceApiPaths,
  DeviceStatusRequest,
  RedeemEnrollmentRequest,
  type RedeemEnrollmentResponse,
  StartShiftRequest,
  type StartShiftResponse,
} from '@gatecheck/contract';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test, vi } from 'vitest';
import { readStoredUser } from '@/lib/stored-user.ts';
import { wireUser } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const TOKEN = 'T'.repeat(43);
const DEVICE_TOKEN = 'device-session-token';
const SHIFT_TOKEN = 'shift-session-token';

/** The redeem endpoint: records each body; answers the device's token, or `refusal`. */
function serveRedeem(refusal?: { code: string; message: string }) {
  const bodies: RedeemEnrollmentRequest[] = [];
  server.use(
    http.post(apiUrl(deviceApiPaths.redeemEnrollment), async ({ request }) => {
      bodies.push(RedeemEnrollmentRequest.parse(await request.json()));
      const answer: RedeemEnrollmentResponse = {
        token: DEVICE_TOKEN,
        expiresAt: '2027-01-01T00:00:00.000Z',
        device: { id: 'device-1', name: 'North gate 2', organizationId: 'org-1', eventId: 'event-1', checkInListId: null },
      };
      return new HttpResponse(JSON.stringify(refusal ?? answer), { status: refusal ? 400 : 200, headers: { 'content-type': 'application/json' } });
    }),
    http.get(apiUrl(apiPaths.usersMe), ({ request }) => {
      const authorization = request.headers.get('authorization');
      if (authorization === `Bearer ${DEVICE_TOKEN}`) return HttpResponse.json({ ...wireUser, displayName: 'North gate 2' });
      if (authorization === `Bearer ${SHIFT_TOKEN}`) return HttpResponse.json({ ...wireUser, id: 'shift-user', displayName: 'Anna (North gate 2)' });
      return errorResponse(401, { code: 'unauthenticated', message: 'no' });
    }),
  );
  return bodies;
}

/** The device's own calls: its shift (asked with the device's token) and its status reports. */
function serveDeviceSelf() {
  const shifts: Array<{ body: StartShiftRequest; authorization: string | null }> = [];
  const reports: DeviceStatusRequest[] = [];
  server.use(
    http.post(apiUrl(deviceApiPaths.startShift), async ({ request }) => {
      shifts.push({ body: StartShiftRequest.parse(await request.json()), authorization: request.headers.get('authorization') });
      const answer: StartShiftResponse = { token: SHIFT_TOKEN, expiresAt: '2099-01-01T00:00:00.000Z', displayName: 'Anna (North gate 2)' };
      return HttpResponse.json(answer);
    }),
    http.post(apiUrl(deviceApiPaths.reportStatus), async ({ request }) => {
      reports.push(DeviceStatusRequest.parse(await request.json()));
      return HttpResponse.json({ success: true });
    }),
  );
  return { shifts, reports };
}

test('one tap on the link sets the device up without a password; the name of whoever scans starts the shift, then choosing', async () => {
  const bodies = serveRedeem();
  const { shifts, reports } = serveDeviceSelf();
  const { user, router } = renderApp({ route: `/enroll#token=${TOKEN}`, user: null });
  await user.click(await screen.findByRole('button', { name: 'Set up this device' }));
  expect(await screen.findByRole('heading', { name: 'Who is scanning?' })).toBeInTheDocument();
  expect(bodies).toEqual([{ token: TOKEN, platform: 'web', useCookie: true }]);
  expect((await readStoredUser())?.device).toMatchObject({ id: 'device-1', token: DEVICE_TOKEN });

  await user.click(screen.getByRole('button', { name: 'Start scanning' }));
  expect(await screen.findByText('Type your name (up to 60 characters).')).toBeInTheDocument();
  expect(shifts).toEqual([]);
  await user.type(screen.getByLabelText('Your name'), '  Anna ');
  await user.click(screen.getByRole('button', { name: 'Start scanning' }));
  expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/organization-select');
  expect(shifts).toEqual([{ body: { name: 'Anna' }, authorization: `Bearer ${DEVICE_TOKEN}` }]);
  const stored = await readStoredUser();
  expect(stored).toMatchObject({ id: 'shift-user', name: 'Anna (North gate 2)', token: SHIFT_TOKEN, device: { token: DEVICE_TOKEN, shiftName: 'Anna' } });
  // A device has no password and no person to sign out: 'End shift' instead, which asks for the next name.
  expect(screen.queryByRole('link', { name: 'Change password' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  await vi.waitFor(() => expect(reports[0]).toEqual({ scansWaiting: 0, platform: 'web', appVersion: expect.stringMatching(/^\d+\.\d+\.\d+/), place: { eventId: 'event-1', checkInListId: null } }));
  await user.click(screen.getByRole('button', { name: 'End shift' }));
  expect(await screen.findByRole('heading', { name: 'Who is scanning?' })).toBeInTheDocument();
  expect((await readStoredUser())?.token).toBe(DEVICE_TOKEN);
});

test('a link used already says so in the server’s words, and nobody is signed in', async () => {
  serveRedeem({ code: 'bad_request', message: 'This setup code was already used. Ask your organizer for a new one.' });
  const { user } = renderApp({ route: `/enroll#token=${TOKEN}`, user: null });
  await user.click(await screen.findByRole('button', { name: 'Set up this device' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('This setup code was already used. Ask your organizer for a new one.');
  expect(await readStoredUser()).toBeNull();
});

test('a link without a token is refused before anything is sent', async () => {
  const bodies = serveRedeem();
  const { user } = renderApp({ route: '/enroll#token=short', user: null });
  await user.click(await screen.findByRole('button', { name: 'Set up this device' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('This setup link is not valid. Ask your organizer for a new one.');
  expect(bodies).toEqual([]);
});

test('with no server to start a shift, the door still scans as the device: "Scan now, name later"', async () => {
  serveRedeem();
  server.use(http.post(apiUrl(deviceApiPaths.startShift), () => HttpResponse.error()), http.post(apiUrl(deviceApiPaths.reportStatus), () => HttpResponse.error()));
  const { user, router } = renderApp({ route: `/enroll#token=${TOKEN}`, user: null });
  await user.click(await screen.findByRole('button', { name: 'Set up this device' }));
  await user.type(await screen.findByLabelText('Your name'), 'Anna');
  await user.click(screen.getByRole('button', { name: 'Start scanning' }));
  expect(await screen.findByText('No connection to the server. Try again when the phone is online.')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Scan now, name later' }));
  expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/organization-select');
  expect((await readStoredUser())?.token).toBe(DEVICE_TOKEN);
});
