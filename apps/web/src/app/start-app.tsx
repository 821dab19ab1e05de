/**
 * Starts the app in `container`: loads the native app's server address and the stored selections (SPEC §3), then renders the providers
 * and the router, and registers the service worker of the browser app (lib/pwa/service-worker.ts). The app renders whatever storage does: selections that cannot be read start
 * empty (lib/storage.ts treats a failed read as absent; a failure here is caught as well).
 */
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { loadDeviceSettings } from '@/lib/device-settings.ts';
import { i18n, i18nReady } from '@/lib/i18n/index.ts';
import { applyChosenLanguage } from '@/lib/i18n/choice.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { installBackButton } from '@/lib/native/back-button.ts';
import { setUpStatusBar } from '@/lib/native/status-bar.ts';
import { loadSelection } from '@/lib/selection.ts';
import { registerServiceWorker } from '@/lib/pwa/service-worker.ts';
import { loadServerAddress } from '@/lib/server-address.ts';
import { followTheme } from '@/lib/theme.ts';
import { notify } from '@/lib/toast.ts';
import { AppProviders } from './providers.tsx';
import { AppRouter } from './router.tsx';

/** Renders the app into `container`; resolves to its React root once rendering has started. Never rejects on storage failures. */
export async function startApp(container: HTMLElement): Promise<Root> {
  // Before the first paint: the device's (or the chosen) theme from the first frame (issue 10 item 8);
  // on native the choices are read from Preferences first (lib/device-settings.ts, decision 051).
  followTheme();
  // Native: the server chosen on the login screen, before any call; the status bar; Android's back
  // button (each screen registers its back); this device's choices; the language's texts (German:
  // its chunk, issue 10 item 9). None of these rejects; the native ones do nothing in a browser.
  await Promise.all([loadServerAddress(), setUpStatusBar(), installBackButton(), loadDeviceSettings(), i18nReady.catch(() => undefined)]);
  // The language chosen on this device, now that native's Preferences have been read.
  await applyChosenLanguage().catch(() => undefined);
  try {
    await loadSelection();
  } catch {
    // Unreadable selections: start with none (the furthest step is then /organization-select).
  }
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
  // The browser app's offline start (issue 12 item 1, docs/decisions/055); a new version waits for
  // staff to tap 'Reload', so it never interrupts a scan.
  registerServiceWorker({
    onUpdateReady: (applyUpdate) =>
      notify({ id: 'app-update', scope: 'app', title: i18n.t('common.updateReady'), action: { label: i18n.t('common.updateReload'), onClick: applyUpdate } }),
  });
  return root;
}
