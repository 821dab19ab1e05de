/** Registering the service worker in a browser and offering a new version (issue 12 item 1, decision 055). */
import { afterEach, expect, test, vi } from 'vitest';
import { FakeWorker, installFakeServiceWorker } from '@/test/fake-service-worker.ts';
import { registerServiceWorker, SERVICE_WORKER_URL } from './service-worker.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

test('a browser registers /sw.js for the whole app', async () => {
  const { register } = installFakeServiceWorker();
  expect(registerServiceWorker({ onUpdateReady: () => undefined })).toBe(true);
  await vi.waitFor(() => expect(register).toHaveBeenCalledWith(SERVICE_WORKER_URL, { scope: '/' }));
});

test('a new version that waits is offered, and only the offer\'s action tells it to take over', async () => {
  const waiting = new FakeWorker(new URL(SERVICE_WORKER_URL, window.location.href).href, 'installed');
  installFakeServiceWorker({ waiting });
  const onUpdateReady = vi.fn<(applyUpdate: () => void) => void>();
  registerServiceWorker({ onUpdateReady });
  await vi.waitFor(() => expect(onUpdateReady).toHaveBeenCalledTimes(1));
  // Offered, not applied: nothing was sent to the waiting worker yet.
  expect(waiting.messages).toEqual([]);

  const [applyUpdate] = onUpdateReady.mock.calls[0] ?? [];
  applyUpdate?.();
  await vi.waitFor(() => expect(waiting.messages).toEqual([{ type: 'SKIP_WAITING' }]));
});

test('without service workers or outside a secure context nothing is registered (plain http on a LAN)', async () => {
  const { register } = installFakeServiceWorker();
  vi.stubGlobal('isSecureContext', false);
  expect(registerServiceWorker({ onUpdateReady: () => undefined })).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(register).not.toHaveBeenCalled();
});
