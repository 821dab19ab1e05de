/**
 * Starts the app in `container`: loads the native app's server address and the stored selections (SPEC §3), then renders the providers
 * and the router, and registers the service worker of the browser app (lib/pwa/service-worker.ts). The app renders whatever storage does: selections that cannot be read start
 * empty (lib/storage.ts treats a failed read as absent; a failure here is caught as well).
 */
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { paths } from '@/config/paths.ts';
import { createSessionStore } from '@/features/auth/session-store.ts';
import { loadDeviceSettings } from '@/lib/device-settings.ts';
import { activeLanguage, i18n, i18nReady } from '@/lib/i18n/index.ts';
import { applyChosenLanguage } from '@/lib/i18n/choice.ts';
import { appQueryClient } from '@/lib/query-client-slot.ts';
import { installBackButton } from '@/lib/native/back-button.ts';
import { isNativePlatform } from '@/lib/native/platform.ts';
import { setUpStatusBar } from '@/lib/native/status-bar.ts';
import { loadSelection } from '@/lib/selection.ts';
import { registerServiceWorker } from '@/lib/pwa/service-worker.ts';
import { loadServerAddress } from '@/lib/server-address.ts';
import { followTheme } from '@/lib/theme.ts';
import { readStoredUser } from '@/lib/stored-user.ts';
import { notify } from '@/lib/toast.ts';
import { whenIdle } from '@/lib/when-idle.ts';
import { App } from './app.tsx';
import { chooseAppContainer, idPrefixOf, settlePrerenderedPage } from './prerendered-page.ts';
import { preloadQueryLayer } from './lazy-screens.ts';
import { AppRouter } from './router.tsx';

/**
 * Renders the app; resolves to its React root once rendering has started. Never rejects on storage
 * failures. On the page the build prerendered (docs/decisions/082) a visitor at /login with no
 * stored user gets the sign-in form hydrated in place (`hydrateRoot`: what was painted stays, with
 * anything typed into it); every other start renders afresh into `#root` while the prerendered
 * 'Loading...' stays on show until the app shows its own first words (prerendered-page.ts).
 * `container` (tests) replaces that choice: the app is rendered into it afresh.
 */
export async function startApp(container?: HTMLElement): Promise<Root> {
  // Before the first paint: the device's (or the chosen) theme from the first frame (issue 10 item 8);
  // on native the choices are read from Preferences first (lib/device-settings.ts, decision 051).
  followTheme();
  // Native: the server chosen on the login screen, before any call; the status bar; Android's back
  // button (each screen registers its back); this device's choices; the language's texts (German:
  // its chunk, issue 10 item 9). None of these rejects; the native ones do nothing in a browser.
  const [storedUser] = await Promise.all([
    readStoredUser(),
    loadServerAddress(),
    setUpStatusBar(),
    installBackButton(),
    loadDeviceSettings(),
    i18nReady.catch(() => undefined),
  ]);
  // The language chosen on this device, now that native's Preferences have been read.
  await applyChosenLanguage().catch(() => undefined);
  try {
    await loadSelection();
  } catch {
    // Unreadable selections: start with none (the furthest step is then /organization-select).
  }
  // TanStack Query loads with the screens after sign-in (docs/decisions/098).
  const queryClient = appQueryClient();
  // No stored user: signed out from the first render (what checkSession would find), so /login
  // renders its form at once, as prerendered, rather than the guard's 'Loading...' first. With one,
  // the SPEC §4 check starts now, and so does the load of what the screens after sign-in need.
  const session = createSessionStore({ queryClient, initial: storedUser === null ? { user: null } : undefined });
  if (storedUser !== null) {
    void session.check();
    preloadQueryLayer(queryClient);
  }
  const app = <App session={session} queryClient={queryClient} router={<AppRouter />} />;
  let root: Root;
  if (container) {
    root = createRoot(container);
    root.render(app);
  } else {
    const isSignInFirst = storedUser === null && !isNativePlatform() && window.location.pathname === paths.login;
    const language = activeLanguage();
    const target = chooseAppContainer(language, isSignInFirst);
    if (target.isPrerendered) {
      root = hydrateRoot(target.element, app, { identifierPrefix: idPrefixOf(language) });
    } else {
      root = createRoot(target.element);
      root.render(app);
    }
    settlePrerenderedPage(target);
  }
  // Signed out: the screens after sign-in need the query cache; its code loads once the page is idle.
  if (storedUser === null) whenIdle(() => preloadQueryLayer(queryClient));
  // The browser app's offline start (issue 12 item 1, docs/decisions/055); a new version waits for
  // staff to tap 'Reload', so it never interrupts a scan.
  registerServiceWorker({
    onUpdateReady: (applyUpdate) =>
      notify({ id: 'app-update', scope: 'app', title: i18n.t('common.updateReady'), action: { label: i18n.t('common.updateReload'), onClick: applyUpdate } }),
  });
  return root;
}
