/**
 * Issue 10 items 2 and 3 in Chromium against the real server: a ticket typed in is APPROVED, the
 * same ticket again is DENIED; each verdict flashes full-screen (word, icon, reason), sounds
 * (Web Audio, recorded by a stand-in AudioContext) and vibrates (navigator.vibrate, recorded), the
 * two verdicts differently; with 'Sound' off nothing is played. The flash shows without animation
 * when the device asks for reduced motion, and no toast covers the header's Back. Each flash is read
 * as it comes up (support/flash-capture.ts), since it is up for only a second.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { boxOf, overlaps, toastBoxes } from './support/layout.ts';
import { recordFeedback, recordedFeedback } from './support/feedback-recorder.ts';
import { captureFlashes, capturedFlashes, clearFrozenFlashes, freezeNextFlash, frozenFlash } from './support/flash-capture.ts';
import { expect, test } from './support/fixtures.ts';
import { expectVerdict, openScannerForDay, startScanning, verifyByHand } from './support/main-job.ts';

/** The full-screen flash of `verdict`. */
function flash(page: Page, verdict: 'approved' | 'denied') {
  return page.locator(`[data-verdict="${verdict}"]`);
}

test('a typed ticket flashes APPROVED, then DENIED with the reason; sounds and vibrations differ; Sound off plays nothing', async ({ page, ticketPool, saveScreen }) => {
  await recordFeedback(page);
  await captureFlashes(page);
  const { event } = await openScannerForDay(page, 'today');
  await startScanning(page);
  const ticket = ticketPool.take(`for "${event.title}" on all days`, (candidate) => candidate.eventTitle === event.title && candidate.days === 'all');

  // Each flash is read as it comes up (support/flash-capture.ts): it is up for only a second.
  await freezeNextFlash(page);
  await verifyByHand(page, ticket.code);
  await expect(frozenFlash(page)).toBeVisible();
  const [approved] = await capturedFlashes(page);
  expect(approved).toMatchObject({ verdict: 'approved', hasIcon: true });
  expect(approved?.text).toContain('APPROVED');
  // Announced once, by the flash's live region (the card is not live; the verdict toast is hidden from screen readers).
  expect(approved?.liveText).toBe('APPROVED');
  // With motion allowed, it fades in.
  expect(approved?.animationName).toBe('verdict-flash');
  await saveScreen(page, 'flash-approved', { fullPage: false });
  // No toast over the header's Back while the verdict is up (the band under it may cover its text, decision 093).
  const back = await boxOf(page.locator('header').getByRole('button', { name: 'Back' }));
  for (const toast of await toastBoxes(page)) expect(overlaps(toast, back), `toast ${JSON.stringify(toast)} covers Back`).toBe(false);
  await clearFrozenFlashes(page);
  // About a second, then the SPEC result card stays.
  await expect(flash(page, 'approved')).toHaveCount(0, { timeout: 3_000 });
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
  const afterApproval = await recordedFeedback(page);

  await verifyByHand(page, ticket.code);
  await expect.poll(async () => (await capturedFlashes(page)).length).toBe(2);
  const denied = (await capturedFlashes(page))[1];
  expect(denied).toMatchObject({ verdict: 'denied', hasIcon: true });
  expect(denied?.text).toContain('DENIED');
  expect(denied?.text).toMatch(/Already checked in at \d{1,2}:\d{2}.* by \S/);
  expect(denied?.liveText).toMatch(/^DENIED\. Already checked in at/);
  // (A tap or Escape ends it early: verdict-flash.test.tsx; here it ends by itself.)
  await expect(flash(page, 'denied')).toHaveCount(0, { timeout: 3_000 });
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
  await freezeNextFlash(page);
  await verifyByHand(page, ticket.code);
  await expect(frozenFlash(page)).toBeVisible();
  // Reduced motion: shown, without animation.
  expect((await capturedFlashes(page))[2]).toMatchObject({ verdict: 'denied', animationName: 'none' });
  // Its words pass AA contrast on its colour (axe, on the still copy of the flash).
  const contrast = await new AxeBuilder({ page }).include('[data-frozen-verdict]').withRules(['color-contrast']).analyze();
  expect(contrast.violations).toEqual([]);
  expect(contrast.passes.flatMap((rule) => rule.nodes).length).toBeGreaterThan(0);
  await saveScreen(page, 'flash-denied', { fullPage: false });
  await clearFrozenFlashes(page);
  const afterSoundOff = await recordedFeedback(page);
  expect(afterSoundOff.notes).toHaveLength(afterDenial.notes.length);
  expect(afterSoundOff.vibrations).toHaveLength(3);

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Sound' })).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('switch', { name: 'Vibration' })).toHaveAttribute('aria-checked', 'true');
});
