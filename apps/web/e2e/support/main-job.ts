/**
 * The steps of the main job (SPEC §1, §2) as a staff member does them, found by role and by SPEC's
 * texts only. Each step waits for the screen it leads to, so a spec reads as the job itself.
 */
import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { DEMO_USER, type DemoScope, findLiveThreeDayEvent, todaysDayNumber } from './demo-scope.ts';
import { TicketPool, readDemoTickets } from './demo-tickets.ts';
import type { FakeCamera } from './fake-camera.ts';

/** Escapes `text` for use inside a RegExp. */
function literal(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/** The app's content, without the toasts (which repeat verdict titles such as 'Valid Ticket'). */
export function screen(page: Page): Locator {
  return page.getByRole('main');
}

/** Opens the app at `/` and lands on the sign-in form (SPEC §2: `/` redirects to /login). */
export async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Sign in to start scanning tickets')).toBeVisible();
}

/** Signs in with `account` (the demo account unless given; SPEC §2 /login) and waits for the organization list. */
export async function signIn(page: Page, account: { email: string; password: string } = DEMO_USER): Promise<void> {
  await page.getByLabel('Email or Username').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/organization-select$/);
  await expect(page.getByRole('heading', { name: 'Choose Your Organization' })).toBeVisible();
}

/** Picks the organization card named `name` and waits for its events (SPEC §2 /organization-select). */
export async function chooseOrganization(page: Page, name: string): Promise<void> {
  await screen(page).getByRole('button', { name: literal(name) }).click();
  await expect(page).toHaveURL(/\/event-select$/);
  await expect(page.getByRole('heading', { name: /Choose Your Event/ })).toBeVisible();
}

/** Picks the event card titled `title` and waits for its days (SPEC §2 /event-select). */
export async function chooseEvent(page: Page, title: string): Promise<void> {
  await expect(page.getByText('Loading events...')).toHaveCount(0);
  await screen(page).getByRole('button', { name: literal(title) }).click();
  await expect(page).toHaveURL(/\/day-select$/);
  await expect(page.getByRole('heading', { name: 'Select Event Day' })).toBeVisible();
}

/**
 * The day card whose label reads 'Day {n}' (SPEC §2 /day-select). Found by that label, not by the
 * card's whole name: a card's 'Not today' warning may name another day ('Today is Day 2, …').
 */
export function dayCard(page: Page, day: number): Locator {
  return screen(page)
    .getByRole('button')
    .filter({ has: page.getByText(`Day ${day}`, { exact: true }) });
}

/** Picks the day card reading 'Day {n}' and waits for the scanner (SPEC §2 /day-select). */
export async function chooseDay(page: Page, day: number): Promise<void> {
  await dayCard(page, day).click();
  await expect(page).toHaveURL(/\/scanner$/);
  await expect(page.getByText('Scanning For')).toBeVisible();
}

/**
 * Opens the app, signs in and walks to the scanner of the live 3-day event for day `day` (each step
 * as above; 'today' is the day that is today at the venue, the only one whose tickets are approved,
 * issue 15 item 4); returns the organization and event chosen. `afterEachStep` runs on each screen reached
 * (organization list, events, days, scanner), e.g. to check or photograph it.
 */
export async function openScannerForDay(page: Page, day: number | 'today', afterEachStep: () => Promise<void> = async () => undefined): Promise<DemoScope> {
  await openApp(page);
  await signIn(page);
  const scope = await findLiveThreeDayEvent(page.request);
  await afterEachStep();
  await chooseOrganization(page, scope.organization.name);
  await afterEachStep();
  await chooseEvent(page, scope.event.title);
  await afterEachStep();
  await chooseDay(page, day === 'today' ? todaysDayNumber(scope.event) : day);
  await afterEachStep();
  return scope;
}

/**
 * Opens the scanner of today (`openScannerForDay`), starts scanning and waits until the day's door
 * list is on the device ('Last synced HH:MM', issue 12), so the gate can go on deciding offline.
 * Returns the organization and event, today's day number and the demo tickets of the server whose
 * data directory is `dataDir`.
 */
export async function openScannerReadyForOffline(page: Page, dataDir: string): Promise<DemoScope & { day: number; tickets: TicketPool }> {
  const tickets = new TicketPool(readDemoTickets(dataDir));
  const scope = await openScannerForDay(page, 'today');
  await startScanning(page);
  await expect(page.getByTestId('last-synced')).toHaveText(/^Last synced \d{1,2}:\d{2}/);
  return { ...scope, day: todaysDayNumber(scope.event), tickets };
}

/** 'Start Scanning' reveals the scanner panel (SPEC §2 /scanner). */
export async function startScanning(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Start Scanning' }).click();
  await expect(page.getByRole('button', { name: 'Start Camera' })).toBeVisible();
  await expect(page.getByLabel('Or enter ticket ID manually:')).toBeVisible();
}

/** Holds a QR code of `code` in front of the fake camera and presses 'Start Camera' (SPEC §4). */
export async function scanWithCamera(page: Page, camera: FakeCamera, code: string): Promise<void> {
  camera.showCode(code);
  await page.getByRole('button', { name: 'Start Camera' }).click();
}

/** The latest verdict on screen: the result card of SPEC §8, 'Valid Ticket' or 'Invalid Ticket'. */
export function verdictCard(page: Page): Locator {
  return screen(page).getByRole('group', { name: /^(Valid|Invalid) Ticket$/ });
}

/** A ticket as the result card and 'Recent scans' name it: its first 20 characters and an ellipsis (SPEC §8). */
export function cardTicketText(text: string): string {
  return `${Array.from(text).slice(0, 20).join('')}...`;
}

/** Holds the picture of a PNG file (e.g. a QR code the admin CLI exported) in front of the fake camera and presses 'Start Camera'. */
export async function scanImageWithCamera(page: Page, camera: FakeCamera, png: Buffer): Promise<void> {
  camera.showImage(png);
  await page.getByRole('button', { name: 'Start Camera' }).click();
}

/** Types `code` into 'Or enter ticket ID manually:' and presses 'Verify' (SPEC §2, §5). */
export async function verifyByHand(page: Page, code: string): Promise<void> {
  await page.getByLabel('Or enter ticket ID manually:').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

/**
 * Waits for the result card of SPEC §8 — a group named 'Valid Ticket' with the badge APPROVED and
 * the holder's name, or 'Invalid Ticket' with DENIED — as the only verdict on screen, and for the
 * matching toast ('Access granted' / 'Access denied').
 * `because` (denials): the plain-words reason line on the card, e.g. /^Already checked in/.
 */
export async function expectVerdict(
  page: Page,
  verdict: { isValid: true; holderName: string } | { isValid: false; because?: string | RegExp },
): Promise<void> {
  const approvedCard = screen(page).getByRole('group', { name: 'Valid Ticket', exact: true });
  const deniedCard = screen(page).getByRole('group', { name: 'Invalid Ticket', exact: true });
  if (verdict.isValid) {
    await expect(approvedCard).toBeVisible();
    await expect(approvedCard.getByText('APPROVED', { exact: true })).toBeVisible();
    await expect(approvedCard.getByText(verdict.holderName)).toBeVisible();
    await expect(deniedCard).toHaveCount(0);
    await expect(page.getByText('Access granted').first()).toBeVisible();
  } else {
    await expect(deniedCard).toBeVisible();
    await expect(deniedCard.getByText('DENIED', { exact: true })).toBeVisible();
    await expect(approvedCard).toHaveCount(0);
    await expect(page.getByText('Access denied').first()).toBeVisible();
    // The reason line, so that a misread code (not found) cannot pass for a duplicate, say.
    if (verdict.because !== undefined) await expect(deniedCard.getByText(verdict.because)).toBeVisible();
  }
}
