/**
 * A failing native Preferences store (on Capacitor's real Android bridge, the stand-in answering
 * every Preferences call with an error): reads are empty, writes keep the in-memory choice and say so.
 */
import { standIn } from '@/test/android-bridge-install.ts';
import { render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { Toaster } from 'sonner';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { testEvent, testOrganization } from '@/test/fixtures.ts';
import { getSelection, loadSelection, selectEvent, selectOrganization } from './selection.ts';
import { readStoredToken } from './stored-user.ts';

beforeAll(() => {
  standIn().options.preferencesFail = true;
});
afterAll(() => {
  standIn().options.preferencesFail = false;
});

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
