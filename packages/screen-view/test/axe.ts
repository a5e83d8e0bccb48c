// axe-core in the test page: its source is added as a script, then `axe.run` audits the document with the rules
// that catch repeated ids switched on (axe ships them off, and reports ARIA ones only as "needs review").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** `rule: selector` for every element that breaks a rule (empty when the page is clean). */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    type Rule = { id: string; nodes: { target: unknown[] }[] };
    const axe = (
      window as unknown as { axe: { run(c: Document, o: unknown): Promise<Record<string, Rule[]>> } }
    ).axe;
    const result = await axe.run(document, {
      rules: { 'duplicate-id': { enabled: true }, 'duplicate-id-active': { enabled: true } },
      resultTypes: ['violations', 'incomplete'],
    });
    const failed = [...result.violations!, ...result.incomplete!.filter((r) => r.id === 'duplicate-id-aria')];
    return failed.flatMap((r) => r.nodes.map((n) => `${r.id}: ${n.target.map(String).join(' ')}`));
  });
}
