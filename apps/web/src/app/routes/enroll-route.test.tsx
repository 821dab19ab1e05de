/**
 * /enroll (docs/decisions/107): the organizer's link sets this device up with one tap, no password;
 * a used or broken link says so. The server is MSW, bodies parsed by the contract.
 */
import { apiPaths, deviceApiPaths, RedeemEnrollmentRequest, type RedeemEnrollmentResponse } from '@gatecheck/contract';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { readStoredUser } from '@/lib/stored-user.ts';
import { wireUser } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const TOKEN = 'T'.repeat(43);
const DEVICE_TOKEN = 'device-session-token';

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
    http.get(apiUrl(apiPaths.usersMe), ({ request }) =>
      request.headers.get('authorization') === `Bearer ${DEVICE_TOKEN}` ? HttpResponse.json({ ...wireUser, displayName: 'North gate 2' }) : errorResponse(401, { code: 'unauthenticated', message: 'no' }),
    ),
  );
  return bodies;
}

test('one tap on the link sets the device up without a password and goes on to choose', async () => {
  const bodies = serveRedeem();
  const { user, router } = renderApp({ route: `/enroll#token=${TOKEN}`, user: null });
  await user.click(await screen.findByRole('button', { name: 'Set up this device' }));
  expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/organization-select');
  expect(bodies).toEqual([{ token: TOKEN, platform: 'web', useCookie: true }]);
  expect((await readStoredUser())?.name).toBe('North gate 2');
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
