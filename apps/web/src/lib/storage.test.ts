/** Storage failures (blocked or full localStorage) never blank the app or lose the choice silently. */
import { render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { Toaster } from 'sonner';
import { afterEach, expect, test, vi } from 'vitest';
import { testOrganization, testUser } from '@/test/fixtures.ts';
import { getSelection, loadSelection, selectOrganization } from './selection.ts';
import { readStoredUser, writeStoredUser } from './stored-user.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const refuse = (name: string) => () => {
  throw new DOMException('refused', name);
};

test('a storage that refuses reads is treated as empty', async () => {
  localStorage.setItem('selectedOrganization', JSON.stringify(testOrganization));
  localStorage.setItem('user', JSON.stringify(testUser));
  vi.spyOn(Storage.prototype, 'getItem').mockImplementation(refuse('SecurityError'));
  await expect(loadSelection()).resolves.toBeUndefined();
  expect(getSelection()).toEqual({ organization: null, event: null, day: null });
  await expect(readStoredUser()).resolves.toBeNull();
});

test('a storage that refuses writes keeps the choice in memory and toasts that it could not be saved on this device', async () => {
  vi.spyOn(Storage.prototype, 'setItem').mockImplementation(refuse('QuotaExceededError'));
  vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(refuse('QuotaExceededError'));
  render(createElement(Toaster));
  await expect(selectOrganization(testOrganization)).resolves.toBeUndefined();
  expect(getSelection().organization).toEqual(testOrganization);
  expect(await screen.findByText('Not saved on this device')).toBeInTheDocument();
  expect(screen.getByText('Storage on this device is unavailable, so your choice applies only until the app is closed.')).toBeInTheDocument();
  // One toast for the three writes of one choice.
  expect(screen.getAllByText('Not saved on this device')).toHaveLength(1);
  await expect(writeStoredUser(testUser)).resolves.toBeUndefined();
});
