import { PASSWORD_MIN_LENGTH } from '@gatecheck/contract/sign-in';
/**
 * /sign-up (docs/decisions/018; not a SPEC §2 route): creates an account with SPEC §7 register, only
 * when the server allows self-registration (GET /auth/options); otherwise the visitor is sent to
 * /login. The country comes from the optional SPEC §7 IP lookup. On success the visitor goes to
 * /login with the server's message; a failure shows the server message, otherwise 'Signup failed'
 * (SPEC §8).
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { CenteredCard } from '@/components/centered-card.tsx';
import { FormField } from '@/components/form-field.tsx';
import { FormNotice } from '@/components/form-notice.tsx';
import { FullScreenMessage } from '@/components/full-screen-message.tsx';
import { TextLink } from '@/components/text-link.tsx';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { authOptionsQueries, useRegisterMutation } from '@/features/auth/account-api.ts';
import { validateSignUp, type SignUpInput } from '@/features/auth/account-rules.ts';
import { accountCreatedText } from '@/features/auth/auth-messages.ts';
import { notify } from '@/lib/toast.ts';
import { useTranslation } from 'react-i18next';

const EMPTY_FORM: SignUpInput = { name: '', username: '', email: '', password: '' };

export function SignUpRoute() {
  const { t } = useTranslation();
  const options = useQuery(authOptionsQueries.current());
  const register = useRegisterMutation();
  const navigate = useNavigate();
  const [form, setForm] = useState<SignUpInput>(EMPTY_FORM);
  const [problem, setProblem] = useState<string | null>(null);

  if (options.isPending) return <FullScreenMessage>{t('common.loading')}</FullScreenMessage>;
  if (!options.data?.isSignUpAllowed) return <Navigate to={paths.login} replace />;

  const field = (name: keyof SignUpInput) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateSignUp(form);
    setProblem(found);
    if (found) return;
    register.mutate(
      { ...form, name: form.name.trim(), username: form.username.trim(), email: form.email.trim() },
      {
        onSuccess: (answer) => {
          // It announces the sign-in screen, so it stays through that step (lib/toast.ts).
          notify({ title: accountCreatedText(answer.message), variant: 'success', scope: 'next-screen' });
          void navigate(paths.login);
        },
      },
    );
  };

  const failure = problem ?? (register.error ? register.error.message : null);
  return (
    <CenteredCard title={t('accountScreens.signUpTitle')} subtitle={t('accountScreens.signUpSubtitle')}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-5">
        <FormField id="sign-up-name" label={t('accountScreens.name')} type="text" autoComplete="name" required {...field('name')} />
        <FormField
          id="sign-up-username"
          label={t('accountScreens.username')}
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          required
          hint={t('auth.usernameRule')}
          {...field('username')}
        />
        <FormField id="sign-up-email" label={t('accountScreens.email')} type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} required {...field('email')} />
        <FormField id="sign-up-password" label={t('accountScreens.password')} type="password" autoComplete="new-password" required hint={t('auth.newPasswordRule', { min: PASSWORD_MIN_LENGTH })} {...field('password')} />
        {failure && <FormNotice variant="error" title={failure} />}
        <Button type="submit" size="large" disabled={register.isPending}>
          {register.isPending ? t('accountScreens.signingUp') : t('accountScreens.signUp')}
        </Button>
      </form>
      <TextLink to={paths.login}>{t('accountScreens.backToSignIn')}</TextLink>
    </CenteredCard>
  );
}
