/**
 * Issue 10 items 4 and 5 at a 360x740 phone: the scanner header's 'Checked in N / M' for today's
 * event day rises by one when a ticket typed by hand is approved, and the collapsed 'Recent scans'
 * list shows that verdict (cut code, holder) and keeps it across a reload. With the list collapsed,
 * the verdict and the manual field stay in view. Screenshots: e2e/artifacts/check-ins-*.png.
 */
import type { Page } from '@playwright/test';
import { axeViolations } from './support/axe.ts';
import { todaysDayNumber } from './support/demo-scope.ts';
import { expect, test } from './support/fixtures.ts';
import { boxOf, isInViewport, sidewaysOverflow } from './support/layout.ts';
import { cardTicketText, expectVerdict, openScannerForDay, screen, startScanning, verifyByHand } from './support/main-job.ts';

// Reduced motion: axe judges settled toasts, not a half-faded frame (as accessibility.spec.ts).
test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, reducedMotion: 'reduce' });

/** The header's count as numbers, once it has loaded. */
async function readCount(page: Page): Promise<{ checkedIn: number; validTickets: number }> {
  const line = page.locator('header').getByText(/^Checked in \d+ \/ \d+$/);
  await expect(line).toBeVisible();
  const match = /^Checked in (\d+) \/ (\d+)$/.exec((await line.textContent()) ?? '');
  if (!match) throw new Error('no count in the header');
  return { checkedIn: Number(match[1]), validTickets: Number(match[2]) };
}

/** Opens 'Recent scans' and returns its list. */
async function openRecentScans(page: Page) {
  await screen(page).locator('summary', { hasText: 'Recent scans' }).click();
  const list = screen(page).getByRole('list', { name: 'Recent scans' });
  await expect(list).toBeVisible();
  return list;
}

test("an approval raises 'Checked in N / M' by one and lands in 'Recent scans', which a reload keeps", async ({ page, ticketPool, saveScreen }) => {
  const { event } = await openScannerForDay(page, 'today');
  const day = todaysDayNumber(event);
  const before = await readCount(page);
  expect(before.validTickets).toBeGreaterThan(before.checkedIn);
  await saveScreen(page, 'check-ins-scanner', { fullPage: false });

  await startScanning(page);
  const ticket = ticketPool.takeForDay(event.title, day);
  await verifyByHand(page, ticket.code);
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
  await expect(page.locator('header').getByText(`Checked in ${before.checkedIn + 1} / ${before.validTickets}`, { exact: true })).toBeVisible();

  // Collapsed, the list leaves the verdict and the field in view.
  await expect(screen(page).locator('details', { has: page.locator('summary', { hasText: 'Recent scans' }) })).not.toHaveAttribute('open');
  expect(await isInViewport(page, await boxOf(screen(page).getByRole('group', { name: 'Valid Ticket' })))).toBe(true);
  expect(await isInViewport(page, await boxOf(page.getByLabel('Or enter ticket ID manually:')))).toBe(true);
  await saveScreen(page, 'check-ins-approved', { fullPage: false });

  const cutCode = cardTicketText(ticket.code);
  const list = await openRecentScans(page);
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText('APPROVED');
  await expect(list.getByRole('listitem').first()).toContainText(cutCode);
  await expect(list.getByRole('listitem').first()).toContainText(ticket.holderName);
  await expect(list.getByRole('listitem').first().locator('time')).toHaveText(/^\d{2}:\d{2}$/);
  expect(await sidewaysOverflow(page)).toBe(0);
  // The count and the open list pass axe-core like every other screen (issue 3).
  expect(await axeViolations(page, 'scanner with recent scans open')).toEqual([]);
  await saveScreen(page, 'check-ins-recent-open');

  // The same code again: denied, listed first; the count does not move.
  await verifyByHand(page, ticket.code);
  await expectVerdict(page, { isValid: false, because: /^Already checked in/ });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').first()).toContainText('DENIED');
  await expect(list.getByRole('listitem').first()).toContainText('Already checked in');
  await expect(page.locator('header').getByText(`Checked in ${before.checkedIn + 1} / ${before.validTickets}`, { exact: true })).toBeVisible();

  await page.reload();
  await expect(page.getByText('Scanning For')).toBeVisible();
  expect((await readCount(page)).checkedIn).toBe(before.checkedIn + 1);
  const kept = await openRecentScans(page);
  await expect(kept.getByRole('listitem')).toHaveCount(2);
  await expect(kept.getByRole('listitem').nth(1)).toContainText(cutCode);
  await expect(kept.getByRole('listitem').nth(1)).toContainText(ticket.holderName);
  await saveScreen(page, 'check-ins-after-reload', { fullPage: false });
});
