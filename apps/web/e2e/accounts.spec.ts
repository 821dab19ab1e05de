/**
 * Account screens in the real built app (issue 15, docs/decisions/018): forgot password → the mailed
 * link → the app's reset screen → sign in with the new password; a used link; change password from
 * a signed-in screen; sign-up (the e2e server runs with ALLOW_SIGNUP=true). Every new screen passes
 * axe with 0 violations. Each test makes its own account, so the demo account stays as it is.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { axeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { openApp } from './support/main-job.ts';
import { waitForResetLink } from './support/outbox.ts';

let accountCount = 0;

/** A new account, made through the API the sign-up screen uses. */
async function createAccount(request: APIRequestContext, label: string) {
  accountCount += 1;
  const suffix = `${label}${accountCount}${Date.now().toString(36)}`;
  const account = { name: `Steward ${suffix}`, username: `steward-${suffix}`, email: `steward-${suffix}@example.org`, password: `first-${suffix}`, country: '' };
  const response = await request.post('/api/auth/register', { data: account });
  expect(response.status()).toBe(201);
  return account;
}

async function signInWith(page: Page, identifier: string, password: string): Promise<void> {
  await page.getByLabel('Email or Username').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function expectSignedIn(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/organization-select$/);
  await expect(page.getByRole('heading', { name: 'Choose Your Organization' })).toBeVisible();
}

async function expectSignInRefused(page: Page): Promise<void> {
  await expect(page.getByText('Login failed')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
}

/** Nothing on the page looks like a raw API answer. */
async function expectNoRawJson(page: Page): Promise<void> {
  await expect(page.locator('body')).not.toContainText('"code"');
  await expect(page.locator('body')).not.toContainText('csrf_failed');
}

test('a steward who forgot the password gets a link by e-mail, chooses a new password in the app and signs in with it', async ({ page, gatecheckServer, saveScreen }) => {
  const account = await createAccount(page.request, 'reset');
  const newPassword = `second-${account.username}`;
  const found: string[] = [];

  await openApp(page);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  found.push(...(await axeViolations(page, 'forgot-password')));
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Reset link sent')).toBeVisible();
  found.push(...(await axeViolations(page, 'forgot-password-sent')));
  await saveScreen(page, 'forgot-password-sent');

  const link = await waitForResetLink(gatecheckServer.dataDir, account.email);
  expect(link.startsWith(`${gatecheckServer.url}/reset-password?token=`)).toBe(true);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByText('At least 8 characters.').first()).toBeVisible();
  found.push(...(await axeViolations(page, 'reset-password')));
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Password updated successfully')).toBeVisible();
  await expectNoRawJson(page);
  found.push(...(await axeViolations(page, 'reset-password-done')));
  await saveScreen(page, 'reset-password-done');

  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInWith(page, account.email, account.password);
  await expectSignInRefused(page);
  await signInWith(page, account.username, newPassword);
  await expectSignedIn(page);

  expect(found).toEqual([]);
});

test('a used or made-up reset link says so in plain words on the reset screen, never as raw JSON', async ({ page, gatecheckServer }) => {
  const account = await createAccount(page.request, 'used');
  expect((await page.request.post('/api/auth/forgot-password', { data: { email: account.email } })).status()).toBe(200);
  const link = await waitForResetLink(gatecheckServer.dataDir, account.email);
  expect((await page.request.post('/api/auth/reset-password', { data: { token: new URL(link).searchParams.get('token'), newPassword: 'used-up-once' } })).status()).toBe(200);

  for (const url of [link, '/reset-password?token=not-a-real-token']) {
    await page.goto(url);
    await page.getByLabel('New password', { exact: true }).fill('another-password');
    await page.getByLabel('Confirm new password').fill('another-password');
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(page.getByRole('alert')).toContainText('This reset link is invalid or has expired.');
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
    await expectNoRawJson(page);
  }
  expect(await axeViolations(page, 'reset-password-failed')).toEqual([]);

  await page.goto('/reset-password');
  await expect(page.getByRole('alert')).toContainText('This reset link is incomplete.');
});

test('a signed-in steward changes the password from the account link next to Logout and signs in with the new one', async ({ page, saveScreen }) => {
  const account = await createAccount(page.request, 'change');
  const newPassword = `changed-${account.username}`;

  await openApp(page);
  await signInWith(page, account.username, account.password);
  await expectSignedIn(page);
  await page.getByRole('link', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  const found = await axeViolations(page, 'change-password');

  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toContainText('Current password is incorrect.');

  await page.getByLabel('Current password').fill(account.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed successfully')).toBeVisible();
  found.push(...(await axeViolations(page, 'change-password-done')));
  await saveScreen(page, 'change-password-done');

  await page.getByRole('button', { name: 'Back' }).click();
  await expectSignedIn(page);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInWith(page, account.username, account.password);
  await expectSignInRefused(page);
  await signInWith(page, account.email, newPassword);
  await expectSignedIn(page);

  expect(found).toEqual([]);
});

test('when the server allows sign-up, a visitor creates an account from the sign-in screen and signs in', async ({ page }) => {
  const suffix = `${Date.now().toString(36)}${accountCount}`;
  const account = { name: `New Steward ${suffix}`, username: `new-${suffix}`, email: `new-${suffix}@example.org`, password: `new-password-${suffix}` };

  await openApp(page);
  await page.getByRole('link', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  const found = await axeViolations(page, 'sign-up');

  await page.getByLabel('Name', { exact: true }).fill(account.name);
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Account created. You can now sign in.')).toBeVisible();

  await signInWith(page, account.email, account.password);
  await expectSignedIn(page);
  expect(found).toEqual([]);
});
