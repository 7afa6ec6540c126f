import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

/** axe-core's browser build, evaluated in the page (through the debugger, so the page's CSP does not apply). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<unknown>; readonly failureSummary?: string }>;
}

/** Runs axe-core (WCAG 2.x A and AA rules and best practices) and answers the serious and critical violations. */
export async function seriousViolations(target: Page | Frame): Promise<string[]> {
  return axeViolations(target, ['serious', 'critical']);
}

/** Runs axe-core and answers every violation of the given impacts (all of them by default), one line each. */
export async function axeViolations(
  target: Page | Frame,
  impacts: ReadonlyArray<string> = ['minor', 'moderate', 'serious', 'critical'],
): Promise<string[]> {
  await target.evaluate(AXE);
  const violations = await target.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact !== null && impacts.includes(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/**
 * Visits pages of the chrome at `baseUrl` one after another (each once `ready` shows, after `act`)
 * and collects, by name, what axe-core finds serious or critical on each.
 */
export function pageScan(page: Page, baseUrl: string) {
  const found: Record<string, string[]> = {};
  const visit = async (name: string, hash: string, ready: string, act?: () => Promise<void>) => {
    await page.goto(`${baseUrl}/${hash}`);
    await page.waitForSelector(ready);
    await act?.();
    const violations = await seriousViolations(page);
    if (violations.length) found[name] = violations;
  };
  return { found, visit };
}
