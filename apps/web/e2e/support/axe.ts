/**
 * axe-core checks (issue 3: every screen passes with 0 violations). All of axe's rules run,
 * experimental ones aside; violations come back as readable lines so one run lists them all.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * One line per violated rule on the page as it is now: screen, rule id, impact, help text, and each
 * offending element with axe's reason (for colour contrast: the two colours and the ratio).
 */
export async function axeViolations(page: Page, screenName: string): Promise<string[]> {
  await settleTransitions(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((violation) => {
    const nodes = violation.nodes.map((node) => {
      const why = [...node.any, ...node.all, ...node.none].map((check) => check.message).join('; ');
      return `${node.target.join(' ')}${why ? ` (${why})` : ''}`;
    });
    return `${screenName}: ${violation.id} (${violation.impact ?? 'n/a'}) ${violation.help} — ${nodes.join(' | ')}`;
  });
}

/**
 * Waits (at most `maxMs`, default 2000 ms) until every finite CSS animation and transition on the
 * page has ended, so axe measures colours as staff see them and not a toast halfway through its
 * fade-in (sonner loads after the first screen, so a toast may arrive just as a check starts).
 * Endless animations (spinners) are not waited for.
 */
async function settleTransitions(page: Page, maxMs = 2000): Promise<void> {
  await page.evaluate(async (limit) => {
    // A transition a change just caused (a theme switched, a toast leaving) starts at the next frame.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const finite = document.getAnimations().filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Number.POSITIVE_INFINITY));
    await Promise.race([Promise.allSettled(finite.map((animation) => animation.finished)), new Promise((resolve) => setTimeout(resolve, limit))]);
  }, maxMs);
}
