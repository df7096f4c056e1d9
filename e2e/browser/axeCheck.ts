import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The rules a colour scheme can change. The page's structure (names, roles,
 * landmarks) is the same in both schemes, so the second scheme is checked for
 * colour alone: a full axe pass is seconds of CPU on a busy machine, and the
 * suites run dozens of them.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe-core's critical and serious findings, labelled `VIEW (SCHEME)`: the
 * whole rule set in light, colour rules in dark. `setScheme` switches the
 * page's scheme (the window follows the media query; an app follows its
 * host's context).
 */
export async function seriousViolations(
  page: Page,
  view: string,
  setScheme: (scheme: 'light' | 'dark') => Promise<void> = (scheme) => page.emulateMedia({ colorScheme: scheme }),
): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await setScheme(scheme);
    const axe = scheme === 'light' ? new AxeBuilder({ page }) : new AxeBuilder({ page }).withRules(COLOUR_RULES);
    for (const v of (await axe.analyze()).violations) {
      if (v.impact !== 'critical' && v.impact !== 'serious') continue;
      const where = v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 4)
        .join(', ');
      found.push(`${view} (${scheme}): ${v.id} — ${v.help}: ${where}`);
    }
  }
  await setScheme('light');
  return found;
}
