/**
 * SPEC §2, §6 and §7 gaps: no sign-up, reset-password or forgot-password screens; the membership role
 * is displayed only; the organization and event lists are asked for with the bearer token and
 * credentials.
 */
import { apiPaths } from '@gatecheck/contract';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { TEST_TOKEN, testOrganization, wireEvents, wireOrganizations } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

test.each(['/signup', '/register'])('%s is not a screen of the app: it shows the 404 page', async (route) => {
  renderApp({ route, user: null });
  expect(await screen.findByText('Oops! Page not found')).toBeInTheDocument();
  expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
});

test('organizations are loaded with the bearer token and credentials included', async () => {
  let seen: { authorization: string | null; credentials: RequestCredentials } | undefined;
  server.use(
    http.get(apiUrl(apiPaths.organizations), ({ request }) => {
      seen = { authorization: request.headers.get('Authorization'), credentials: request.credentials };
      return HttpResponse.json(wireOrganizations);
    }),
  );
  renderApp({ route: '/organization-select' });
  await screen.findByRole('button', { name: /Harbour Festivals/ });
  expect(seen).toEqual({ authorization: `Bearer ${TEST_TOKEN}`, credentials: 'include' });
});

test('the events of an organization are loaded with the same auth as organizations', async () => {
  let seen: { authorization: string | null; credentials: RequestCredentials; organizationId: string } | undefined;
  server.use(
    http.get(apiUrl(apiPaths.organizationEvents), ({ request, params }) => {
      seen = { authorization: request.headers.get('Authorization'), credentials: request.credentials, organizationId: String(params['organizationId']) };
      return HttpResponse.json(wireEvents);
    }),
  );
  renderApp({ route: '/event-select', selection: { organization: testOrganization } });
  await screen.findByRole('button', { name: /Harbour Sound 2026/ });
  expect(seen).toEqual({ authorization: `Bearer ${TEST_TOKEN}`, credentials: 'include', organizationId: 'org-1' });
});

test('the membership role is only displayed: an organization can be chosen whatever the role', async () => {
  server.use(
    http.get(apiUrl(apiPaths.organizations), () =>
      HttpResponse.json([{ _id: 'org-7', name: 'Guest House', description: 'Small venue', role: 'guest', activeEvents: [] }]),
    ),
  );
  const { user, router } = renderApp({ route: '/organization-select' });
  const card = await screen.findByRole('button', { name: /Guest House/ });
  expect(card).toHaveTextContent('guest');
  await user.click(card);
  expect(await screen.findByText('Organization Selected')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/event-select');
});
