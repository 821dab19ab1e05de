/**
 * The scanner's offline line says, while scans wait, that the browser may clear them when it refused
 * to keep the app's storage (navigator.storage.persist(), docs/decisions/095); not when it kept it,
 * and not when nothing waits.
 */
import { render, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { keepDeviceStorage } from '@/lib/persistent-storage.ts';
import { initialConnectivity } from '../offline/connectivity.ts';
import type { OfflineDoor } from '../offline/use-offline-door.ts';
import { OfflineStatus } from './offline-status.tsx';

const NOTE = 'This browser may delete scans kept on this phone if it runs low on space. Add Gatecheck to the home screen (install it) to keep them.';

function door(waitingCount: number): OfflineDoor {
  return {
    connectivity: initialConnectivity,
    lastSyncedAt: null,
    isListDiscarded: false,
    isSyncing: false,
    waitingCount,
    othersWaitingCount: 0,
    approvalsWaitingCount: waitingCount,
    setAside: [],
    isWaitingToSend: () => false,
    syncNow: () => undefined,
    dismissSetAside: () => undefined,
    decidesLocally: () => false,
    decide: async () => null,
    verifyFailed: () => undefined,
    verifyAnswered: () => undefined,
    checkInUndone: () => undefined,
    hasUnsentAdmission: async () => false,
  };
}

/** A browser whose StorageManager answers `persist()` with `granted` (and was not persistent before). */
function browserStorage(granted: boolean) {
  const persist = vi.fn(async () => granted);
  Object.defineProperty(navigator, 'storage', { configurable: true, value: { persist, persisted: async () => false } });
  return persist;
}

test('a browser that refuses to keep the storage: the note shows while scans wait, and the browser is asked once', async () => {
  const persist = browserStorage(false);
  const { rerender } = render(<OfflineStatus door={door(0)} />);
  await expect(keepDeviceStorage()).resolves.toBe('may_be_cleared');
  expect(screen.queryByText(NOTE)).not.toBeInTheDocument();
  rerender(<OfflineStatus door={door(2)} />);
  expect(await screen.findByText(NOTE)).toBeInTheDocument();
  expect(persist).toHaveBeenCalledTimes(1);
});

test('a browser that keeps the storage: no note, even with scans waiting', async () => {
  browserStorage(true);
  render(<OfflineStatus door={door(3)} />);
  await expect(keepDeviceStorage()).resolves.toBe('kept');
  expect(await screen.findByTestId('waiting-count')).toBeInTheDocument();
  expect(screen.queryByText(NOTE)).not.toBeInTheDocument();
});

test('a browser without StorageManager cannot say: no note', async () => {
  Object.defineProperty(navigator, 'storage', { configurable: true, value: undefined });
  render(<OfflineStatus door={door(1)} />);
  await expect(keepDeviceStorage()).resolves.toBe('unknown');
  expect(screen.queryByText(NOTE)).not.toBeInTheDocument();
});
