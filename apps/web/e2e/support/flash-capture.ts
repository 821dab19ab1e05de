/**
 * The verdict flash (issue 10 item 2) is up for about a second. On a busy test machine a handful of
 * Playwright round trips can take longer than that, so checks run against the live flash race its
 * timer. This records each flash the moment it enters the page (a MutationObserver, before the next
 * paint) — its verdict, words, whether it has its icon, its animation, and what the assertive live
 * region says — and, when asked, leaves a still copy of it on the page (`data-frozen-verdict`,
 * styled by the same classes and theme, without the app's click handler) so axe and a screenshot
 * can look at it at leisure. Nothing of the app is changed: the real flash still ends on
 * its own timer.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/** One flash as it appeared. */
export interface CapturedFlash {
  verdict: 'approved' | 'denied';
  text: string;
  hasIcon: boolean;
  animationName: string;
  /** What the assertive live region said as the flash came up. */
  liveText: string;
}

/** Starts recording flashes in every document `page` opens from now on. */
export async function captureFlashes(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = new WeakSet<Element>();
    const state = { flashes: [] as CapturedFlash[], freezeNext: false };
    Object.assign(window, { __flashCapture: state });
    const observer = new MutationObserver(() => {
      for (const element of document.querySelectorAll('[data-verdict]')) {
        if (seen.has(element)) continue;
        seen.add(element);
        const verdict = element.getAttribute('data-verdict') === 'approved' ? 'approved' : 'denied';
        state.flashes.push({
          verdict,
          text: element.textContent ?? '',
          hasIcon: element.querySelector(verdict === 'approved' ? 'svg.lucide-circle-check' : 'svg.lucide-circle-x') !== null,
          animationName: getComputedStyle(element).animationName,
          liveText: document.querySelector('[aria-live="assertive"]')?.textContent ?? '',
        });
        if (state.freezeNext) {
          state.freezeNext = false;
          const still = element.cloneNode(true) as HTMLElement;
          still.removeAttribute('data-verdict');
          still.setAttribute('data-frozen-verdict', verdict);
          // A picture: no fade-in, so axe and the screenshot see its final colours at once.
          still.style.animation = 'none';
          document.body.append(still);
        }
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

/** The flashes seen so far in the current document, oldest first. */
export async function capturedFlashes(page: Page): Promise<CapturedFlash[]> {
  return page.evaluate(() => (window as unknown as { __flashCapture: { flashes: CapturedFlash[] } }).__flashCapture.flashes);
}

/** Asks for a still copy of the next flash (call before the action that causes it). */
export async function freezeNextFlash(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __flashCapture: { freezeNext: boolean } }).__flashCapture.freezeNext = true;
  });
}

/** The still copy of the last frozen flash. */
export function frozenFlash(page: Page): Locator {
  return page.locator('[data-frozen-verdict]');
}

/** Removes the still copies, so the screen under them can be used again. */
export async function clearFrozenFlashes(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const still of document.querySelectorAll('[data-frozen-verdict]')) still.remove();
  });
}

/**
 * axe's colour-contrast rule on the still copy of the last flash (the real one is up for a second
 * only): its violations, and how many nodes it checked.
 */
export async function frozenFlashContrast(page: Page): Promise<{ violations: unknown[]; checked: number }> {
  await expect(frozenFlash(page)).toBeVisible();
  const result = await new AxeBuilder({ page }).include('[data-frozen-verdict]').withRules(['color-contrast']).analyze();
  return { violations: result.violations, checked: result.passes.flatMap((rule) => rule.nodes).length };
}
