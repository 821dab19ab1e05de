/**
 * The door team on the web (issue 30 item 5) against a contract-shaped fake server (msw): an admin
 * invites an address with a role (a bad address is said next to the field, nothing sent; a member's
 * address is refused there too) and revokes a pending invitation; the mailed link's screen accepts
 * for a signed-in account, and makes an account and joins for someone signed out.
 */
import { type AcceptInvitationResponse, type ApiErrorBody, InviteMemberRequest, JoinWithNewAccountRequest, type ManagedEvent, managePaths, type Team, teamPaths } from '@gatecheck/contract';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test } from 'vitest';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const adminOrganization = { ...testOrganization, role: 'admin' };
let team: Team;
let invites: InviteMemberRequest[];
let joins: JoinWithNewAccountRequest[];
let accepted: string[];

beforeEach(() => {
  invites = [];
  joins = [];
  accepted = [];
  team = { members: [{ userId: 'u1', name: 'Dana Admin', username: 'dana', email: 'dana@example.org', role: 'admin' }], invitations: [] };
  server.use(
    http.get(apiUrl(managePaths.organizationEvents(testOrganization.id)), () => HttpResponse.json<ManagedEvent[]>([])),
    http.get(apiUrl(teamPaths.team(testOrganization.id)), () => HttpResponse.json<Team>(team)),
    http.post<never, never, Team | ApiErrorBody>(apiUrl(teamPaths.invitations(testOrganization.id)), async ({ request }) => {
      const body = InviteMemberRequest.parse(await request.json());
      invites.push(body);
      if (body.email === 'dana@example.org') return errorResponse(409, { code: 'conflict', message: 'dana@example.org is already a member of Harbour Festivals: change their role instead.', field: 'body.email' });
      team = { ...team, invitations: [{ id: 'inv-1', email: body.email, role: body.role, invitedBy: 'Dana Admin', createdAt: '2026-11-27T10:00:00.000Z', expiresAt: '2026-12-04T10:00:00.000Z' }] };
      return HttpResponse.json<Team>(team, { status: 201 });
    }),
    http.post(apiUrl(teamPaths.revokeInvitation('inv-1')), () => {
      team = { ...team, invitations: [] };
      return HttpResponse.json<Team>(team);
    }),
    http.post(apiUrl(teamPaths.acceptInvitation), async ({ request }) => {
      accepted.push(((await request.json()) as { token: string }).token);
      return HttpResponse.json<AcceptInvitationResponse>({ organizationId: testOrganization.id, organizationName: 'Harbour Festivals', role: 'supervisor' });
    }),
    http.post(apiUrl(teamPaths.joinWithNewAccount), async ({ request }) => {
      joins.push(JoinWithNewAccountRequest.parse(await request.json()));
      return HttpResponse.json<AcceptInvitationResponse>({ organizationId: testOrganization.id, organizationName: 'Harbour Festivals', role: 'staff' });
    }),
  );
});

test('an admin invites by e-mail with a role, sees it waiting and revokes it; a bad or member address is said at the field', { timeout: 20_000 }, async () => {
  const { user } = renderApp({ route: '/manage', selection: { organization: adminOrganization } });
  await user.click(await screen.findByRole('link', { name: 'Door team' }));
  await screen.findByText('Dana Admin');
  await user.type(screen.getByLabelText('E-mail address'), 'not-an-address');
  await user.click(screen.getByRole('button', { name: 'Send invitation' }));
  expect(screen.getByLabelText('E-mail address')).toHaveAccessibleDescription('Give an e-mail address such as sam@example.com.');
  expect(invites).toEqual([]);

  await user.clear(screen.getByLabelText('E-mail address'));
  await user.type(screen.getByLabelText('E-mail address'), 'dana@example.org');
  await user.click(screen.getByRole('button', { name: 'Send invitation' }));
  await waitFor(() => expect(screen.getByLabelText('E-mail address')).toHaveAccessibleDescription(/already a member/));

  await user.clear(screen.getByLabelText('E-mail address'));
  await user.type(screen.getByLabelText('E-mail address'), 'rosa@example.org');
  await user.selectOptions(screen.getByLabelText('Role'), 'supervisor');
  await user.click(screen.getByRole('button', { name: 'Send invitation' }));
  await user.click(await screen.findByRole('button', { name: 'Revoke the invitation of rosa@example.org' }));
  expect(invites.at(-1)).toEqual({ email: 'rosa@example.org', role: 'supervisor' });
  expect(await screen.findByText('No invitations are waiting.')).toBeInTheDocument();
});

test('the invitation link, signed in: Accept joins and says as what', async () => {
  const { user } = renderApp({ route: '/invitation?token=tok-123' });
  await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
  expect(await screen.findByText('You joined Harbour Festivals as Supervisor.')).toBeInTheDocument();
  expect(accepted).toEqual(['tok-123']);
});

test('the invitation link, signed out: a new account with a name, username and password joins', { timeout: 20_000 }, async () => {
  const { user } = renderApp({ route: '/invitation?token=tok-456', user: null });
  await user.type(await screen.findByLabelText('Your name'), 'Nadia Door');
  await user.type(screen.getByLabelText('Username'), 'nadia');
  await user.type(screen.getByLabelText('New password'), 'nadia-at-the-door');
  await user.type(screen.getByLabelText('Confirm new password'), 'nadia-at-the-door');
  await user.click(screen.getByRole('button', { name: 'Make my account and join' }));
  expect(await screen.findByText('You joined Harbour Festivals as Staff.')).toBeInTheDocument();
  expect(joins).toEqual([{ token: 'tok-456', name: 'Nadia Door', username: 'nadia', password: 'nadia-at-the-door' }]);
});
