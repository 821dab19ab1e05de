/**
 * /login (SPEC §2): the sign-in form. Once signed in, the user is sent to the furthest step already
 * chosen (SPEC §2) — of the choices that belong to this user (see keep-own-selection.ts). Under the
 * form: 'Forgot password?', and 'Sign up' when the server allows it (docs/decisions/018).
 *
 * In the native app the form starts with 'Server' (issue 9 item 5, decision 030): the address is
 * checked (https, or http on a private network; a Gatecheck server must answer within 8 s) and
 * remembered on the device before signing in. It also takes an organizer's enrollment link pasted
 * into it (docs/decisions/107): 'Set up this device' then goes to /enroll with the link, and no
 * account is needed.
 *
 * In the browser this screen is first painted from HTML rendered at build time (app/prerender.tsx,
 * docs/decisions/082), then hydrated. What is typed into that HTML before hydration is kept (the
 * fields' text becomes the state); 'Sign In' is disabled until hydration, so the form is never
 * submitted by the browser itself (a GET with the password in the address).
 */
import { parseEnrollmentLink } from '@gatecheck/contract/paths';
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { FullScreenMessage } from '@/components/full-screen-message.tsx';
import { TextLink } from '@/components/text-link.tsx';
import { LanguageToggle } from '@/components/language-toggle.tsx';
import { ThemeToggle } from '@/components/theme-toggle.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { SCANNER_NAME } from '@/config/constants.ts';
import { paths } from '@/config/paths.ts';
import { furthestStep, loginFailureDescription, validateLogin } from '@/features/auth/auth-logic.ts';
import { sessionEndText } from '@/features/auth/auth-messages.ts';
import { useIsSignUpOffered } from '@/features/auth/sign-up-offer.ts';
import { exitApp, useBackButton } from '@/lib/native/back-button.ts';
import { isNativePlatform } from '@/lib/native/platform.ts';
import { useQueryClientSlot, type QueryClientSlot } from '@/lib/query-client-slot.ts';
import { clearSelection, getSelection, useSelection } from '@/lib/selection.ts';
import {
  checkServerAddress,
  parseServerAddress,
  saveServerAddress,
  serverAddressMessage,
  serverAddressPrefill,
  type ServerAddressProblem,
} from '@/lib/server-address.ts';
import { notify } from '@/lib/toast.ts';
import { useIsHydrated } from '@/lib/use-is-hydrated.ts';
import { preloadQueryLayer } from '../lazy-screens.ts';
import { useSession, useSessionStore } from '../session-provider.tsx';
import { useTranslation } from 'react-i18next';
import { loadScreenTexts } from '@/lib/i18n/index.ts';

/**
 * The check of the stored organization against the new user's memberships (keep-own-selection.ts).
 * Loaded on demand: it brings the organization list's call and schema (classic zod), which the
 * sign-in form does not need to be usable (issue 13, docs/decisions/061). The screen starts the load
 * once it is shown when an organization is stored, so signing in does not wait for it.
 */
const loadSelectionCheck = () => import('../keep-own-selection.ts');

/**
 * Before the furthest-step redirect: keeps the stored organization, event and day only when they are
 * the signed-in user's (SPEC §2). When the check itself cannot be loaded, the choices are cleared,
 * as keep-own-selection.ts does when the memberships cannot be loaded. Never throws.
 */
async function keepOwnSelection(queryClient: QueryClientSlot): Promise<void> {
  const checked = getSelection();
  if (!checked.organization) return;
  try {
    const [{ keepOnlyOwnSelection }, client] = await Promise.all([loadSelectionCheck(), queryClient.load()]);
    await keepOnlyOwnSelection(client);
  } catch {
    // Only the choices this check was about: one made since is not the previous user's.
    if (getSelection() === checked) await clearSelection('organization');
  }
}

/**
 * Why the setup QR code scan gave no link (serverAddress.setupScanProblems, in the first load's texts
 * so the first screen can say it even when the other screens' texts cannot load): not a setup code,
 * or the scanner's own problem.
 */
type SetupScanProblem = 'notSetupCode' | 'installing' | 'denied' | 'failed';

export function LoginRoute() {
  const { t } = useTranslation();
  const session = useSession();
  const selection = useSelection();
  const sessionStore = useSessionStore();
  const queryClient = useQueryClientSlot();
  const [isSigningIn, setSigningIn] = useState(false);
  const hasStoredOrganization = Boolean(selection.organization);
  useEffect(() => {
    if (hasStoredOrganization) void loadSelectionCheck().catch(() => undefined);
  }, [hasStoredOrganization]);
  const isSignUpOffered = useIsSignUpOffered();
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [validationError, setValidationError] = useState<string | null>(null);
  const [isNative] = useState(isNativePlatform);
  const [serverAddress, setServerAddress] = useState(serverAddressPrefill);
  const [serverError, setServerError] = useState<ServerAddressProblem | null>(null);
  const [isCheckingServer, setCheckingServer] = useState(false);
  const [setupProblem, setSetupProblem] = useState<SetupScanProblem | null>(null);
  const isHydrated = useIsHydrated();
  const navigate = useNavigate();
  // An enrollment link pasted into the Server field sets the device up instead (decision 107).
  const isEnrollmentLink = isNative && parseEnrollmentLink(serverAddress) !== null;
  // Ids from useId: the page holds the prerendered form once per language, each with its own ids (docs/decisions/082).
  const id = useId();
  const identifierField = useRef<HTMLInputElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  // Typed into the prerendered form before React hydrated it: the fields show it, so it is the state.
  useLayoutEffect(() => {
    const typedIdentifier = identifierField.current?.value ?? '';
    const typedPassword = passwordField.current?.value ?? '';
    if (typedIdentifier !== '') setIdentifier(typedIdentifier);
    if (typedPassword !== '') setPassword(typedPassword);
  }, []);
  // Android's back button leaves the app from the first screen (issue 9 item 4).
  useBackButton(exitApp);

  if (session.status === 'loading') return <FullScreenMessage>{t('common.loading')}</FullScreenMessage>;
  if (session.status === 'authenticated') return <Navigate to={furthestStep(selection)} replace />;

  /** Native: checks and remembers the server; false (with the message shown) when it cannot be used. */
  const confirmServer = async (): Promise<boolean> => {
    const parsed = parseServerAddress(serverAddress);
    if (parsed.problem) {
      setServerError(parsed.problem);
      return false;
    }
    setServerError(null);
    setCheckingServer(true);
    try {
      const problem = await checkServerAddress(parsed.apiBaseUrl);
      if (problem) {
        setServerError(problem);
        return false;
      }
      // A Preferences failure still leaves the server in use until the app closes.
      await saveServerAddress(parsed.apiBaseUrl).catch(() => undefined);
      return true;
    } finally {
      setCheckingServer(false);
    }
  };

  /** Native: reads the organizer's setup QR code with ML Kit and goes on to set the device up (docs/decisions/116). */
  const scanSetupCode = async () => {
    setSetupProblem(null);
    // Loaded on the tap, with the words of its problems: both stay off the sign-in screen's first load.
    const [{ scanOneQrCode }] = await Promise.all([import('@/lib/native/scan-once.ts'), loadScreenTexts().catch(() => undefined)]);
    const result = await scanOneQrCode();
    if (result.code !== undefined) {
      if (parseEnrollmentLink(result.code)) void navigate(paths.enroll, { state: { link: result.code.trim() } });
      else setSetupProblem('notSetupCode');
    } else if (result.problem !== 'cancelled') {
      setSetupProblem(result.problem);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isEnrollmentLink) {
      void navigate(paths.enroll, { state: { link: serverAddress.trim() } });
      return;
    }
    const problem = validateLogin(identifier, password);
    setValidationError(problem);
    if (problem) return;
    if (isNative && !(await confirmServer())) return;
    // The screens after sign-in need the query cache: its code loads while the sign-in call runs.
    preloadQueryLayer(queryClient);
    setSigningIn(true);
    try {
      // The previous user's organization, event and day are dropped before the furthest-step redirect.
      await sessionStore.signIn({ identifier, password }, { beforeSignIn: () => keepOwnSelection(queryClient) });
    } catch (error) {
      notify({ title: t('login.failed'), description: loginFailureDescription(error), variant: 'error' });
    } finally {
      setSigningIn(false);
    }
  };

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 pt-[calc(var(--screen-top)+2.5rem)] pb-[calc(var(--safe-bottom)+2.5rem)]">
      <Card className="w-full max-w-md p-6 sm:p-8">
        <h1 className="text-3xl font-bold text-slate-900">{SCANNER_NAME}</h1>
        <p className="mt-2 text-lg text-slate-700">{t('login.subtitle')}</p>
        {session.reason && (
          <p role="status" className="mt-4 rounded-xl border-2 border-amber-700 bg-amber-50 px-4 py-3 text-base font-semibold text-amber-900">
            {sessionEndText(session.reason)}
          </p>
        )}
        {isNative && (
          <div className="mt-6 flex flex-col gap-2">
            <Button variant="secondary" onClick={() => void scanSetupCode()}>
              {t('login.scanSetupCode')}
            </Button>
            {setupProblem && (
              <p role="alert" className="text-base font-semibold text-red-800">
                {t(`serverAddress.setupScanProblems.${setupProblem}`)}
              </p>
            )}
          </div>
        )}
        <form noValidate onSubmit={(event) => void submit(event)} className="mt-6 flex flex-col gap-5">
          {isNative && (
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-server`}>{t('login.server')}</Label>
              <Input
                id={`${id}-server`}
                name="server"
                type="url"
                inputMode="url"
                autoComplete="url"
                autoCapitalize="none"
                autoCorrect="off"
                spellCheck={false}
                placeholder="https://gate.example.com"
                value={serverAddress}
                onChange={(event) => setServerAddress(event.target.value)}
                aria-invalid={serverError !== null}
                aria-describedby={serverError ? `${id}-server-error` : undefined}
              />
              {serverError && (
                <p id={`${id}-server-error`} role="alert" className="text-base font-semibold text-red-800">
                  {serverAddressMessage(serverError)}
                </p>
              )}
            </div>
          )}
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-identifier`}>{t('login.identifier')}</Label>
            <Input
              ref={identifierField}
              id={`${id}-identifier`}
              name="identifier"
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              required
              value={identifier}
              onChange={(event) => setIdentifier(event.target.value)}
              aria-invalid={validationError !== null && identifier.trim() === ''}
              aria-describedby={validationError ? `${id}-error` : undefined}
            />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-password`}>{t('login.password')}</Label>
            <Input
              ref={passwordField}
              id={`${id}-password`}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={validationError !== null && password === ''}
              aria-describedby={validationError ? `${id}-error` : undefined}
            />
          </div>
          {validationError && (
            <p id={`${id}-error`} role="alert" className="text-base font-semibold text-red-800">
              {validationError}
            </p>
          )}
          <Button type="submit" size="large" disabled={!isHydrated || isSigningIn || isCheckingServer}>
            {isEnrollmentLink ? t('login.setUpDevice') : isSigningIn || isCheckingServer ? t('login.signingIn') : t('login.signIn')}
          </Button>
        </form>
        <nav aria-label={t('login.accountNav')} className="mt-4 flex flex-wrap items-center justify-between gap-x-4">
          <TextLink to={paths.forgotPassword}>{t('login.forgotPassword')}</TextLink>
          {isSignUpOffered ? (
            <TextLink to={paths.signUp}>{t('login.signUp')}</TextLink>
          ) : (
            // The link's room, kept while the server's answer is awaited and when sign-up is off, so
            // its arrival never moves the form painted from HTML (no layout shift, docs/decisions/082).
            <span aria-hidden="true" className="ui-text-link invisible">
              {t('login.signUp')}
            </span>
          )}
        </nav>
      </Card>
      <ThemeToggle />
      <LanguageToggle />
    </main>
  );
}
