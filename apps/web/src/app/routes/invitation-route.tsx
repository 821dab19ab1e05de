/**
 * /invitation?token=… (issue 30 item 5): the mailed link of an invitation to a door team. Signed in
 * (with the invited address), 'Accept invitation' joins; signed out, a new account is made with the
 * invited address (name, username, password) and joins at once, or the person signs in first and
 * opens the link again. Open: outside the sign-in guard.
 */
import type { MembershipRole } from '@gatecheck/contract/organizations';
import { INVITATION_LINK } from '@gatecheck/contract/paths';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CenteredCard } from '@/components/centered-card.tsx';
import { FormField } from '@/components/form-field.tsx';
import { FormNotice } from '@/components/form-notice.tsx';
import { NewPasswordFields } from '@/components/new-password-fields.tsx';
import { TextLink } from '@/components/text-link.tsx';
import { Button, buttonClassName } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { validateNewPassword } from '@/features/auth/account-rules.ts';
import { refusalOf } from '@/features/manage/manage-logic.ts';
import { organizationQueries } from '@/features/organizations/api.ts';
import { useAcceptInvitation, useJoinWithNewAccount } from '@/features/team/api.ts';
import { useSession } from '../session-provider.tsx';

export function InvitationRoute() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get(INVITATION_LINK.tokenParam) ?? '';
  const session = useSession();
  return (
    <CenteredCard title={t('team.invitationTitle')} subtitle={t('team.invitationSubtitle')}>
      {token === '' ? (
        <FormNotice variant="error" title={t('team.noToken')} />
      ) : session.status === 'loading' ? (
        <p role="status">{t('common.loading')}</p>
      ) : session.status === 'authenticated' ? (
        <AcceptAsSignedIn token={token} />
      ) : (
        <JoinWithNewAccount token={token} />
      )}
    </CenteredCard>
  );
}

function Joined({ organizationName, role }: { organizationName: string; role: MembershipRole }) {
  const { t } = useTranslation();
  return (
    <>
      <FormNotice variant="success" title={t('team.joined', { organization: organizationName, role: t(`team.roles.${role}`) })} />
      <Link to={paths.organizationSelect} className={buttonClassName({ size: 'large' })}>
        {t('team.toOrganizations')}
      </Link>
    </>
  );
}

function AcceptAsSignedIn({ token }: { token: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const accept = useAcceptInvitation();
  if (accept.data) return <Joined organizationName={accept.data.organizationName} role={accept.data.role} />;
  return (
    <>
      {accept.error && <FormNotice variant="error" title={refusalOf(accept.error).text} />}
      <Button
        size="large"
        disabled={accept.isPending}
        onClick={() => accept.mutate(token, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: organizationQueries.all() }) })}
      >
        {t('team.accept')}
      </Button>
    </>
  );
}

function JoinWithNewAccount({ token }: { token: string }) {
  const { t } = useTranslation();
  const join = useJoinWithNewAccount();
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (join.data) {
    return (
      <>
        <FormNotice variant="success" title={t('team.joined', { organization: join.data.organizationName, role: t(`team.roles.${join.data.role}`) })}>
          {t('team.signInNow', { username: username.trim() })}
        </FormNotice>
        <Link to={paths.login} className={buttonClassName({ size: 'large' })}>
          {t('team.toSignIn')}
        </Link>
      </>
    );
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = name.trim() === '' || username.trim() === '' ? t('team.nameAndUsername') : validateNewPassword(password, confirmation);
    setProblem(found);
    if (!found) join.mutate({ token, name: name.trim(), username: username.trim(), password });
  };
  const failure = problem ?? (join.error ? refusalOf(join.error).text : null);
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-5">
      <p className="text-base text-slate-800">{t('team.newAccountExplained')}</p>
      <FormField id="join-name" label={t('team.yourName')} autoComplete="name" value={name} onChange={(change) => setName(change.target.value)} required />
      <FormField
        id="join-username"
        label={t('team.username')}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={username}
        onChange={(change) => setUsername(change.target.value)}
        required
      />
      <NewPasswordFields idPrefix="join" newPassword={password} confirmation={confirmation} onNewPasswordChange={setPassword} onConfirmationChange={setConfirmation} />
      {failure && <FormNotice variant="error" title={failure} />}
      <Button type="submit" size="large" disabled={join.isPending}>
        {t('team.join')}
      </Button>
      <TextLink to={paths.login}>{t('team.haveAccount')}</TextLink>
    </form>
  );
}
