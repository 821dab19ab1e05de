/**
 * The door team's calls (issue 30 item 5): the organization's members and pending invitations, and
 * the writes — invite, revoke, change a member's role, remove a member, accept an invitation, join
 * from one with a new account — as TanStack
 * mutations. Paths and shapes from the contract.
 */
import type { MembershipRole } from '@gatecheck/contract/organizations';
import { AcceptInvitationResponse, type InviteMemberRequest, type JoinWithNewAccountRequest, Team, teamPaths } from '@gatecheck/contract/team';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';

export const teamQueries = {
  all: () => ['team'] as const,
  /** GET the organization's members and pending invitations. @throws {ApiError} */
  team: (organizationId: string) =>
    queryOptions({
      queryKey: [...teamQueries.all(), organizationId] as const,
      queryFn: ({ signal }) => apiRequest(teamPaths.team(organizationId), { schema: Team, signal }),
    }),
};

/** POST an invitation; the answer (the team as it is now) replaces the cached team. */
export function useInviteMember(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: InviteMemberRequest) => apiRequest(teamPaths.invitations(organizationId), { method: 'POST', body: request, schema: Team }),
    onSuccess: (team) => queryClient.setQueryData(teamQueries.team(organizationId).queryKey, team),
  });
}

/** POST revoke of a pending invitation; the answer replaces the cached team. */
export function useRevokeInvitation(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => apiRequest(teamPaths.revokeInvitation(invitationId), { method: 'POST', schema: Team }),
    onSuccess: (team) => queryClient.setQueryData(teamQueries.team(organizationId).queryKey, team),
  });
}

/** POST a member's new role; the answer replaces the cached team. @throws {ApiError} 409 for the last admin */
export function useChangeMemberRole(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: MembershipRole }) =>
      apiRequest(teamPaths.memberRole(organizationId, userId), { method: 'POST', body: { role }, schema: Team }),
    onSuccess: (team) => queryClient.setQueryData(teamQueries.team(organizationId).queryKey, team),
  });
}

/** POST removal of a member; the answer replaces the cached team. @throws {ApiError} 409 for the last admin */
export function useRemoveMember(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiRequest(teamPaths.removeMember(organizationId, userId), { method: 'POST', schema: Team }),
    onSuccess: (team) => queryClient.setQueryData(teamQueries.team(organizationId).queryKey, team),
  });
}

/** POST accept of the invitation whose link holds `token`, by the signed-in account. */
export function useAcceptInvitation() {
  return useMutation({
    mutationFn: (token: string) => apiRequest(teamPaths.acceptInvitation, { method: 'POST', body: { token }, schema: AcceptInvitationResponse }),
  });
}

/** POST join: a new account with the invited address, member at once. */
export function useJoinWithNewAccount() {
  return useMutation({
    mutationFn: (request: JoinWithNewAccountRequest) => apiRequest(teamPaths.joinWithNewAccount, { method: 'POST', body: request, schema: AcceptInvitationResponse, token: null }),
  });
}
