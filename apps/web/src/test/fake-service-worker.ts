/**
 * A stand-in of the browser's `navigator.serviceWorker` (jsdom has none) for the registration code
 * (lib/pwa/service-worker.ts, through workbox-window): records `register` calls and can present a
 * new worker that waits. A platform global, stubbed the way tests stub `navigator.vibrate`.
 */
import { vi } from 'vitest';

/** A worker as the page sees it: its script URL, state, and the messages posted to it. */
export class FakeWorker extends EventTarget {
  readonly messages: unknown[] = [];
  constructor(
    readonly scriptURL: string,
    public state: ServiceWorkerState,
  ) {
    super();
  }
  postMessage(message: unknown): void {
    this.messages.push(message);
  }
}

/**
 * Installs the stand-in on `navigator` and a secure context on `window`. `waiting`: a worker of
 * `/sw.js` that has installed and waits (a new version). Undo with `vi.unstubAllGlobals()`.
 */
export function installFakeServiceWorker(options: { waiting?: FakeWorker } = {}) {
  const registration = Object.assign(new EventTarget(), { installing: null, waiting: options.waiting ?? null, active: null, update: vi.fn(async () => undefined) });
  const container = Object.assign(new EventTarget(), { controller: null, register: vi.fn(async () => registration) });
  vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { serviceWorker: container }));
  vi.stubGlobal('isSecureContext', true);
  return { register: container.register, registration };
}
