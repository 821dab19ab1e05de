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
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((violation) => {
    const nodes = violation.nodes.map((node) => {
      const why = [...node.any, ...node.all, ...node.none].map((check) => check.message).join('; ');
      return `${node.target.join(' ')}${why ? ` (${why})` : ''}`;
    });
    return `${screenName}: ${violation.id} (${violation.impact ?? 'n/a'}) ${violation.help} — ${nodes.join(' | ')}`;
  });
}
