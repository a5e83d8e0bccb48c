// axe-core in a real page: its source is evaluated through the DevTools protocol (the pages' CSP allows no
// inline script), then `axe.run` audits the document and the violations come back as plain data.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One rule axe found broken, with the elements (CSS selectors) that break it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * Rules axe ships switched off that matter here: repeated ids (a screen drawn twice in a thread, issue 38)
 * and WCAG 2.2's 24 px target size.
 */
const EXTRA_RULES = ['duplicate-id', 'duplicate-id-active', 'target-size'];

/**
 * Runs every axe-core rule that is on by default (WCAG 2.0-2.2 A and AA, and best practices) plus
 * {@link EXTRA_RULES} over the page or frame and returns the violations; an empty list is a clean page.
 * `duplicate-id-aria` reports a repeated id that ARIA points at as "needs review"; here it is a violation.
 */
export async function audit(target: Page | Frame): Promise<AxeViolation[]> {
  const has = await target.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!has) await target.evaluate(AXE_SOURCE);
  return target.evaluate(async (extra) => {
    type Rule = {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: unknown[]; failureSummary?: string }[];
    };
    type Result = { violations: Rule[]; incomplete: Rule[] };
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<Result> } })
      .axe;
    const result = await axe.run(document, {
      rules: Object.fromEntries(extra.map((id) => [id, { enabled: true }])),
      resultTypes: ['violations', 'incomplete'],
    });
    const failed = [...result.violations, ...result.incomplete.filter((r) => r.id === 'duplicate-id-aria')];
    return failed.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String).join(' '),
        summary: (n.failureSummary ?? '').split('\n').slice(0, 3).join(' '),
      })),
    }));
  }, EXTRA_RULES);
}

/** Violations as readable lines for a failing assertion: `rule (impact): selector: why`. */
export function describeViolations(violations: AxeViolation[]): string[] {
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target}: ${n.summary}`));
}
