/**
 * Issue 10 items 2 and 3 in Chromium against the real server: a ticket typed in is APPROVED, the
 * same ticket again is DENIED; each verdict flashes full-screen (word, icon, reason), sounds
 * (Web Audio, recorded by a stand-in AudioContext) and vibrates (navigator.vibrate, recorded), the
 * two verdicts differently; with 'Sound' off nothing is played. The flash shows without animation
 * when the device asks for reduced motion, and no toast covers the event header.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { boxOf, overlaps, toastBoxes } from './support/layout.ts';
import { recordFeedback, recordedFeedback } from './support/feedback-recorder.ts';
import { expect, test } from './support/fixtures.ts';
import { expectVerdict, openScannerForDay, startScanning, verifyByHand } from './support/main-job.ts';

/** The full-screen flash of `verdict`. */
function flash(page: Page, verdict: 'approved' | 'denied') {
  return page.locator(`[data-verdict="${verdict}"]`);
}

test('a typed ticket flashes APPROVED, then DENIED with the reason; sounds and vibrations differ; Sound off plays nothing', async ({ page, ticketPool, saveScreen }) => {
  await recordFeedback(page);
  const { event } = await openScannerForDay(page, 'today');
  await startScanning(page);
  const ticket = ticketPool.take(`for "${event.title}" on all days`, (candidate) => candidate.eventTitle === event.title && candidate.days === 'all');

  await verifyByHand(page, ticket.code);
  const approved = flash(page, 'approved');
  await expect(approved).toBeVisible();
  await expect(approved).toContainText('APPROVED');
  await expect(approved.locator('svg.lucide-circle-check')).toBeVisible();
  // Announced once, by the flash's live region (the card is not live; the verdict toast is hidden from screen readers).
  await expect(page.locator('[aria-live="assertive"]')).toHaveText('APPROVED');
  // With motion allowed, it fades in.
  expect(await approved.evaluate((element) => getComputedStyle(element).animationName)).toBe('verdict-flash');
  await saveScreen(page, 'flash-approved', { fullPage: false });
  // No toast over the event header while the verdict is up.
  const header = await boxOf(page.locator('header').first());
  for (const toast of await toastBoxes(page)) expect(overlaps(toast, header), `toast ${JSON.stringify(toast)} covers the header`).toBe(false);
  // About a second, then the SPEC result card stays.
  await expect(approved).toHaveCount(0, { timeout: 3_000 });
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
  const afterApproval = await recordedFeedback(page);

  await verifyByHand(page, ticket.code);
  const denied = flash(page, 'denied');
  await expect(denied).toBeVisible();
  await expect(denied).toContainText('DENIED');
  await expect(denied).toContainText(/Already checked in at \d{1,2}:\d{2}.* by \S/);
  await expect(denied.locator('svg.lucide-circle-x')).toBeVisible();
  await expect(page.locator('[aria-live="assertive"]')).toHaveText(/^DENIED\. Already checked in at/);
  // Tapping it dismisses it early.
  await denied.click();
  await expect(denied).toHaveCount(0);
  await expectVerdict(page, { isValid: false, because: /^Already checked in/ });
  const afterDenial = await recordedFeedback(page);

  const approvalNotes = afterApproval.notes;
  const denialNotes = afterDenial.notes.slice(approvalNotes.length);
  expect(afterDenial.contexts).toBe(1);
  expect(approvalNotes.length).toBeGreaterThan(0);
  expect(denialNotes.length).toBeGreaterThan(0);
  expect(denialNotes).not.toEqual(approvalNotes);
  for (const note of [...approvalNotes, ...denialNotes]) expect(note.durationMs).toBeGreaterThan(0);
  expect(afterDenial.vibrations).toHaveLength(2);
  expect(afterDenial.vibrations[0]).not.toEqual(afterDenial.vibrations[1]);

  // Sound off (remembered): the next verdict still flashes and vibrates, and plays nothing.
  await page.getByRole('switch', { name: 'Sound' }).click();
  await expect(page.getByRole('switch', { name: 'Sound' })).toHaveAttribute('aria-checked', 'false');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await verifyByHand(page, ticket.code);
  await expect(flash(page, 'denied')).toBeVisible();
  // Reduced motion: shown, without animation.
  expect(await flash(page, 'denied').evaluate((element) => getComputedStyle(element).animationName)).toBe('none');
  // Its words pass AA contrast on its colour (axe, scoped to the flash while it is up).
  const contrast = await new AxeBuilder({ page }).include('[data-verdict]').withRules(['color-contrast']).analyze();
  expect(contrast.violations).toEqual([]);
  expect(contrast.passes.flatMap((rule) => rule.nodes).length).toBeGreaterThan(0);
  await saveScreen(page, 'flash-denied', { fullPage: false });
  const afterSoundOff = await recordedFeedback(page);
  expect(afterSoundOff.notes).toHaveLength(afterDenial.notes.length);
  expect(afterSoundOff.vibrations).toHaveLength(3);

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Sound' })).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('switch', { name: 'Vibration' })).toHaveAttribute('aria-checked', 'true');
});
