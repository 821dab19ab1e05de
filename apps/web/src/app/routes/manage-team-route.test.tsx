/**
 * The door team on the web (issue 30 item 5) against a contract-shaped fake server (msw): an admin
 * invites an address with a role (a bad address is said next to the field, nothing sent; a member's
 * address is refused there too) and revokes a pending invitation; the mailed link's screen accepts
 * for a signed-in account, and makes an account and joins for someone signed out; an admin changes a
 * member's role (the last admin's refusal shown at the role) and removes a member after a question.
 */
import { type AcceptInvitationResponse, type ApiErrorBody, ChangeMemberRoleRequest, InviteMemberRequest, JoinWithNewAccountRequest, type ManagedEvent, managePaths, type Team, teamPaths, teamRoutes } from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
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
let roleChanges: Array<{ userId: string; role: string }>;
let removals: string[];

beforeEach(() => {
  invites = [];
  joins = [];
  accepted = [];
  roleChanges = [];
  removals = [];
  team = {
    members: [
      { userId: 'u1', name: 'Dana Admin', username: 'dana', email: 'dana@example.org', role: 'admin' },
      { userId: 'u2', name: 'Sam Door', username: 'sam', email: 'sam@example.org', role: 'staff' },
    ],
    invitations: [],
  };
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
    http.post<{ userId: string }, never, Team | ApiErrorBody>(apiUrl(teamRoutes.memberRole.replace(':organizationId', testOrganization.id)), async ({ request, params }) => {
      const { role } = ChangeMemberRoleRequest.parse(await request.json());
      roleChanges.push({ userId: params.userId, role });
      if (params.userId === 'u1') return errorResponse(409, { code: 'conflict', message: 'Dana Admin is the only admin of Harbour Festivals: make someone else admin before you change their role, or nobody could manage it.', field: 'body.role' });
      team = { ...team, members: team.members.map((member) => (member.userId === params.userId ? { ...member, role } : member)) };
      return HttpResponse.json<Team>(team);
    }),
    http.post<{ userId: string }>(apiUrl(teamRoutes.removeMember.replace(':organizationId', testOrganization.id)), ({ params }) => {
      removals.push(params.userId);
      team = { ...team, members: team.members.filter((member) => member.userId !== params.userId) };
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

test("an admin changes a member's role; the last admin's refusal is said at the role; a member is removed after a question", { timeout: 20_000 }, async () => {
  const { user } = renderApp({ route: '/manage/team', selection: { organization: adminOrganization } });
  await user.selectOptions(await screen.findByLabelText('Role of Sam Door'), 'supervisor');
  const [, samChange] = screen.getAllByRole('button', { name: 'Change role' });
  if (!samChange) throw new Error('no Change role button for Sam');
  await user.click(samChange);
  await waitFor(() => expect(roleChanges).toEqual([{ userId: 'u2', role: 'supervisor' }]));
  expect(await screen.findByText('Supervisor', { selector: '[data-slot="badge"], span' })).toBeInTheDocument();

  await user.selectOptions(screen.getByLabelText('Role of Dana Admin'), 'staff');
  const [danaChange] = screen.getAllByRole('button', { name: 'Change role' });
  if (!danaChange) throw new Error('no Change role button for Dana');
  await user.click(danaChange);
  await waitFor(() => expect(screen.getByLabelText('Role of Dana Admin')).toHaveAccessibleDescription(/only admin of Harbour Festivals/));

  await user.click(screen.getByRole('button', { name: 'Remove Sam Door' }));
  await user.click(await screen.findByRole('button', { name: 'Keep it' }));
  expect(removals).toEqual([]);
  await user.click(screen.getByRole('button', { name: 'Remove Sam Door' }));
  const dialog = await screen.findByRole('alertdialog', { name: /Remove Sam Door from/ });
  await user.click(within(dialog).getByRole('button', { name: 'Remove Sam Door' }));
  await waitFor(() => expect(screen.queryByText('Sam Door')).not.toBeInTheDocument());
  expect(removals).toEqual(['u2']);
});
