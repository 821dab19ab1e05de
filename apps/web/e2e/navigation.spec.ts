/**
 * Issue 3's walk through the rest of the flow (SPEC §2): the empty states, the default day, back
 * buttons and the left-edge swipe (SPEC §9 thresholds), logout and the guard, and the 404 page.
 */
import type { Page } from '@playwright/test';
import { DEMO_USER, findEmptyStates, findLiveThreeDayEvent } from './support/demo-scope.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, openApp, screen, signIn } from './support/main-job.ts';

/** A left-edge swipe with a mouse pointer: from 10 px to 250 px right, 20 px down (SPEC §9: > 100 px right, < 100 px drift). */
async function swipeBackWithPointer(page: Page): Promise<void> {
  await page.mouse.move(10, 500);
  await page.mouse.down();
  await page.mouse.move(250, 520, { steps: 8 });
  await page.mouse.up();
}

/** The same swipe with a finger, through the browser's touch input (the context has touch enabled). */
async function swipeBackWithTouch(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 10, y: 500 }] });
  for (const x of [60, 120, 180, 250]) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: 510 }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('staff see an organization without events, an event without days, and continue to the scanner with the default day', async ({ page, saveScreen }) => {
  await openApp(page);
  await signIn(page);
  const { emptyOrganization, organization, eventWithoutDays } = await findEmptyStates(page.request);

  await chooseOrganization(page, emptyOrganization.name);
  await expect(screen(page).getByText('No Events Found')).toBeVisible();
  await expect(screen(page).getByText('No events are available for this organization.')).toBeVisible();
  await saveScreen(page, 'event-select-empty');

  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/organization-select$/);

  await chooseOrganization(page, organization.name);
  await chooseEvent(page, eventWithoutDays.title);
  await expect(screen(page).getByText('No Event Days')).toBeVisible();
  await expect(screen(page).getByText("This event doesn't have specific days configured.")).toBeVisible();
  await saveScreen(page, 'day-select-empty');

  await screen(page).getByRole('button', { name: 'Continue to Scanner' }).click();
  await expect(page).toHaveURL(/\/scanner$/);
  await expect(screen(page).getByText(eventWithoutDays.title)).toBeVisible();
  await expect(screen(page).getByText(/Main Event/)).toBeVisible();
  await expect(screen(page).getByText(/Day 1\b/)).toBeVisible();
  await saveScreen(page, 'scanner-default-day');
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true });

  test('staff can step back with the back button and with left-edge swipes of a finger and a mouse, then log out', async ({ page }) => {
    await openApp(page);
    await signIn(page);
    const { organization, event } = await findLiveThreeDayEvent(page.request);
    await chooseOrganization(page, organization.name);
    await chooseEvent(page, event.title);
    await chooseDay(page, 1);

    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/day-select$/);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/event-select$/);

    await chooseEvent(page, event.title);
    await chooseDay(page, 1);
    await swipeBackWithTouch(page);
    await expect(page).toHaveURL(/\/day-select$/);

    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/event-select$/);
    await swipeBackWithPointer(page);
    await expect(page).toHaveURL(/\/organization-select$/);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // Signed out: the guard sends every signed-in route back to the login form.
    await page.goto('/scanner');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Email or Username')).toHaveValue('');
    await expect(page.getByText(DEMO_USER.email)).toHaveCount(0);
  });
});

test('an unknown address shows the 404 page with a way home', async ({ page, saveScreen }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await saveScreen(page, 'not-found');
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/login$/);
});
