import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ElementContext, Result } from 'axe-core';
import type { Page } from 'playwright-core';

/** The WCAG 2.0 and 2.1 rules, levels A and AA. */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

declare global {
  interface Window {
    axe?: { run: (context: ElementContext, options: object) => Promise<AxeResults> };
  }
}

/**
 * Runs axe-core over the page as it stands, frames included (TinyMCE's editing iframe among them),
 * and answers the violations a person would be stopped by: impact serious or critical. Evaluated
 * through the DevTools protocol, so the app's Content-Security-Policy (no inline scripts) does not
 * stand in the way.
 */
export async function seriousViolations(page: Page): Promise<Result[]> {
  for (const frame of page.frames()) {
    // A frame that went away meanwhile has nothing to check.
    await frame.evaluate(axeSource).catch(() => undefined);
  }
  const results = await page.evaluate(
    (tags) =>
      window.axe!.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    wcagTags,
  );
  return results.violations.filter(({ impact }) => impact === 'serious' || impact === 'critical');
}

/** One line per violation and per element, for a failure message a person can act on. */
export function describeViolations(violations: Result[]): string {
  return violations
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n` +
        violation.nodes
          .map(
            (node) =>
              `    ${node.target.join(' >> ')}\n      ${(node.failureSummary ?? '').replace(/\n/g, '\n      ')}`,
          )
          .join('\n'),
    )
    .join('\n');
}
