/** A failing native Preferences bridge: reads are empty, writes keep the in-memory choice and say so. */
import { render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { Toaster } from 'sonner';
import { expect, test, vi } from 'vitest';
import { testEvent, testOrganization } from '@/test/fixtures.ts';
import { getSelection, loadSelection, selectEvent, selectOrganization } from './selection.ts';
import { readStoredToken } from './stored-user.ts';

vi.mock('@/lib/native/platform.ts', () => ({ isNativePlatform: () => true }));
vi.mock('@/lib/native/preferences.ts', () => ({
  preferencesGet: async () => Promise.reject(new Error('bridge unavailable')),
  preferencesSet: async () => Promise.reject(new Error('bridge unavailable')),
  preferencesRemove: async () => Promise.reject(new Error('bridge unavailable')),
}));

test('native storage that cannot be read starts empty', async () => {
  await expect(loadSelection()).resolves.toBeUndefined();
  expect(getSelection()).toEqual({ organization: null, event: null, day: null });
  await expect(readStoredToken()).resolves.toBeNull();
});

test('native storage that cannot be written keeps the choice in memory and toasts that it could not be saved on this device', async () => {
  render(createElement(Toaster));
  await selectOrganization(testOrganization);
  await selectEvent(testEvent);
  expect(getSelection()).toMatchObject({ organization: testOrganization, event: testEvent });
  expect(await screen.findByText('Not saved on this device')).toBeInTheDocument();
});
