/**
 * /manage/team (issue 30 item 5, docs/decisions/115): the selected organization's door team for its
 * admins — members with their roles (change a role, remove a member: the server keeps at least one
 * admin and says so next to the member), pending invitations (with Revoke), and 'Invite' by e-mail
 * address with a role (the server mails the one-time link). Others are sent to /event-select; the
 * server refuses them.
 */
import { MembershipRole } from '@gatecheck/contract/organizations';
import { ChangeMemberRoleRequest, InviteMemberRequest, type TeamMember } from '@gatecheck/contract/team';
import { useQuery } from '@tanstack/react-query';
import { Mail, UserMinus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormNotice } from '@/components/form-notice.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { paths } from '@/config/paths.ts';
import { Field } from '@/features/manage/components/field.tsx';
import { canManage } from '@/features/manage/manage-access.ts';
import { refusalOf } from '@/features/manage/manage-logic.ts';
import { teamQueries, useChangeMemberRole, useInviteMember, useRemoveMember, useRevokeInvitation } from '@/features/team/api.ts';
import { formatShortDate } from '@/lib/dates.ts';
import type { OrganizationItem } from '@/lib/entities.ts';
import { useSelection } from '@/lib/selection.ts';
import { useSession } from '@/app/session-provider.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { notify } from '@/lib/toast.ts';
import { useBack } from '@/lib/use-back.ts';

export function ManageTeamRoute() {
  const { organization } = useSelection();
  if (!organization) return <Navigate to={paths.organizationSelect} replace />;
  if (!canManage(organization.role)) return <Navigate to={paths.eventSelect} replace />;
  return <DoorTeam organization={organization} />;
}

function DoorTeam({ organization }: { organization: OrganizationItem }) {
  const { t } = useTranslation();
  const goBack = useBack(paths.manage);
  const team = useQuery(teamQueries.team(organization.id));
  const invite = useInviteMember(organization.id);
  const revoke = useRevokeInvitation(organization.id);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MembershipRole>('staff');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = InviteMemberRequest.safeParse({ email, role });
    setProblem(checked.success ? null : t('team.emailProblem'));
    if (!checked.success) return;
    invite.mutate(checked.data, {
      onSuccess: () => {
        notify({ title: t('team.invited'), description: checked.data.email, variant: 'success', isBrief: true });
        setEmail('');
      },
    });
  };
  const refusal = invite.error ? refusalOf(invite.error) : null;
  const emailProblem = problem ?? (refusal?.field === 'email' ? refusal.text : null);

  return (
    <PageShell title={t('team.title')} subtitle={organization.name} onBack={goBack}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4 rounded-2xl border-2 border-slate-200 p-4">
        <h2 className="text-lg font-bold text-slate-900">{t('team.inviteHeading')}</h2>
        <Field id="invite-email" label={t('team.email')} problem={emailProblem}>
          {(control) => (
            <Input
              {...control}
              type="email"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              value={email}
              onChange={(change) => {
                setEmail(change.target.value);
                setProblem(null);
              }}
            />
          )}
        </Field>
        <div className="flex flex-col gap-2">
          <Label htmlFor="invite-role">{t('team.role')}</Label>
          <select id="invite-role" className="ui-input" value={role} onChange={(change) => setRole(MembershipRole.parse(change.target.value))}>
            {MembershipRole.options.map((option) => (
              <option key={option} value={option}>
                {t(`team.roles.${option}`)}
              </option>
            ))}
          </select>
        </div>
        {refusal && refusal.field !== 'email' && <FormNotice variant="error" title={refusal.text} />}
        <Button type="submit" disabled={invite.isPending}>
          <Mail aria-hidden="true" className="size-5" />
          {invite.isPending ? t('team.inviting') : t('team.invite')}
        </Button>
      </form>

      {team.isPending && <p role="status" className="text-lg text-slate-700">{t('team.loading')}</p>}
      {team.isError && <FormNotice variant="error" title={refusalOf(team.error).text} />}
      {team.data && (
        <>
          <section aria-labelledby="pending-heading" className="flex flex-col gap-3">
            <h2 id="pending-heading" className="text-lg font-bold text-slate-900">
              {t('team.pending')}
            </h2>
            {team.data.invitations.length === 0 && <p className="text-base text-slate-800">{t('team.noPending')}</p>}
            {revoke.error && <FormNotice variant="error" title={refusalOf(revoke.error).text} />}
            <ul className="flex flex-col gap-3">
              {team.data.invitations.map((invitation) => (
                <li key={invitation.id} className="flex flex-col gap-2 rounded-2xl border-2 border-slate-200 bg-white p-4">
                  <span className="text-base font-bold break-all text-slate-900">{invitation.email}</span>
                  <span className="text-base text-slate-800">
                    {t(`team.roles.${invitation.role}`)} · {t('team.expires', { date: formatShortDate(invitation.expiresAt.slice(0, 10)) })}
                  </span>
                  <Button variant="secondary" disabled={revoke.isPending} onClick={() => revoke.mutate(invitation.id)}>
                    {t('team.revoke', { email: invitation.email })}
                  </Button>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="members-heading" className="flex flex-col gap-3">
            <h2 id="members-heading" className="text-lg font-bold text-slate-900">
              {t('team.members')}
            </h2>
            <ul className="flex flex-col gap-3">
              {team.data.members.map((member) => (
                <MemberCard key={member.userId} organization={organization} member={member} />
              ))}
            </ul>
          </section>
        </>
      )}
    </PageShell>
  );
}

/**
 * One member: name, role and address; their role to change ('Change role') and 'Remove' after a
 * question. A refusal (the last admin) is shown on this member's card, next to the role.
 */
function MemberCard({ organization, member }: { organization: OrganizationItem; member: TeamMember }) {
  const { t } = useTranslation();
  const changeRole = useChangeMemberRole(organization.id);
  const remove = useRemoveMember(organization.id);
  const [role, setRole] = useState<MembershipRole>(member.role);
  const [isConfirmingRemove, setConfirmingRemove] = useState(false);
  const isYou = useSession().user?.id === member.userId;
  const roleId = `member-role-${member.userId}`;
  const refusal = changeRole.error ? refusalOf(changeRole.error) : remove.error ? refusalOf(remove.error) : null;
  const save = () => {
    const checked = ChangeMemberRoleRequest.safeParse({ role });
    if (!checked.success) return;
    remove.reset();
    changeRole.mutate(
      { userId: member.userId, role: checked.data.role },
      { onSuccess: () => notify({ title: t('team.roleChanged'), description: `${member.name}: ${t(`team.roles.${checked.data.role}`)}`, variant: 'success', isBrief: true }) },
    );
  };
  return (
    <li className="flex flex-col gap-3 rounded-2xl border-2 border-slate-200 bg-white p-4">
      <span className="flex flex-wrap items-center gap-2">
        <span className="text-base font-bold text-slate-900">
          {member.name}
          {isYou && <span className="font-normal text-slate-800"> ({t('team.you')})</span>}
        </span>
        <Badge>{t(`team.roles.${member.role}`)}</Badge>
      </span>
      <span className="text-base break-all text-slate-800">{member.email}</span>
      <Field id={roleId} label={t('team.roleOf', { name: member.name })} problem={refusal?.text}>
        {(control) => (
          <select
            {...control}
            className="ui-input"
            value={role}
            onChange={(change) => {
              setRole(MembershipRole.parse(change.target.value));
              changeRole.reset();
            }}
          >
            {MembershipRole.options.map((option) => (
              <option key={option} value={option}>
                {t(`team.roles.${option}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button variant="secondary" disabled={role === member.role || changeRole.isPending} onClick={save}>
          {t('team.changeRole')}
        </Button>
        <Button variant="secondary" disabled={remove.isPending} onClick={() => setConfirmingRemove(true)}>
          <UserMinus aria-hidden="true" className="size-5" />
          {t('team.remove', { name: member.name })}
        </Button>
      </div>
      <ConfirmDialog
        open={isConfirmingRemove}
        onOpenChange={setConfirmingRemove}
        title={t('team.removeConfirmTitle', { name: member.name, organization: organization.name })}
        description={t('team.removeConfirmText')}
        cancelLabel={t('manageLists.keep')}
        confirmLabel={t('team.remove', { name: member.name })}
        onConfirm={() => {
          setConfirmingRemove(false);
          changeRole.reset();
          remove.mutate(member.userId, { onSuccess: () => notify({ title: t('team.removed'), description: member.name, variant: 'success', isBrief: true }) });
        }}
      />
    </li>
  );
}
