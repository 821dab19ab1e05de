/**
 * Registers the app's service worker (`/sw.js`, built by vite-plugin-pwa: see vite.config.ts and
 * docs/decisions/055) so that the app starts without a server after one online visit (issue 12
 * item 1), and offers a new version without ever reloading by itself.
 *
 * - Not in the native app: Capacitor serves the bundled files from the device already, and a worker
 *   in its WebView would only add a second copy to keep in step.
 * - Not where the browser has no service workers, nor outside a secure context (plain http on a LAN
 *   address: the browser refuses; the app then works online as before).
 * - Updates: when a new version has installed and waits, `onUpdateReady(applyUpdate)` is called;
 *   the app shows a 'Reload' prompt, and only that tap activates the new worker and reloads — never
 *   in the middle of a scan. Closing every tab of the app activates it too.
 */
import { isNativePlatform } from '@/lib/native/platform.ts';

/** Where the worker is served (the server sends it with `Cache-Control: no-cache`). */
export const SERVICE_WORKER_URL = '/sw.js';

export interface ServiceWorkerOptions {
  /** Called once a new version waits; `applyUpdate` activates it and reloads the page. */
  onUpdateReady: (applyUpdate: () => void) => void;
}

/**
 * Registers the worker when this platform should have one (see the module comment).
 * @returns true when a registration was started; never throws (a failed registration is ignored:
 *   the app then works online as before).
 */
export function registerServiceWorker({ onUpdateReady }: ServiceWorkerOptions): boolean {
  if (isNativePlatform() || typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !window.isSecureContext) return false;
  // workbox-window in a chunk of its own: off the first load of the sign-in screen.
  import('workbox-window')
    .then(({ Workbox }) => {
      const workbox = new Workbox(SERVICE_WORKER_URL, { scope: '/' });
      workbox.addEventListener('waiting', () => {
        onUpdateReady(() => {
          workbox.addEventListener('controlling', () => window.location.reload());
          workbox.messageSkipWaiting();
        });
      });
      return workbox.register();
    })
    .catch(() => undefined);
  return true;
}
