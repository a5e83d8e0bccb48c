// Checks read props against the catalog's zod schema and names unknown components with a suggestion.
import { catalog, componentOf } from './catalog/index.js';
import type { ComponentSpec } from './catalog/types.js';
import { compiledCheck } from './compile-check.js';
import { fail } from './fault.js';

/** Words a line may start with besides components. */
export const LINE_WORDS = ['table', 'put', 'theme', 'group', 'end'] as const;

/**
 * Checks props (read over the component's defaults) with the component's zod schema (INVALID_VALUE names the prop and
 * the limit); returns them as they are.
 */
export function checkProps(
  spec: ComponentSpec,
  props: Record<string, unknown>,
  offset: number,
): Record<string, unknown> {
  // Valid props (nearly every line) pass the compiled check; zod runs only to word a refusal.
  if (compiledCheck(spec.props)?.(props)) return props;
  const checked = spec.props.safeParse(props);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const path = issue.path.length > 0 ? `${String(issue.path[0])}: ` : '';
    const message = issue.message.startsWith('Invalid') ? `${path}${issue.message}` : issue.message;
    fail('INVALID_VALUE', offset, `${spec.name} ${message}; usage: ${spec.usage}`);
  }
  return props;
}

/** Refuses an unknown first word, suggesting the nearest component. */
export function unknownComponent(name: string, offset: number): never {
  const known = [...Object.keys(catalog), ...LINE_WORDS];
  const near = known.filter((k) => distance(k, name.toLowerCase()) <= 2);
  const hint = near.length > 0 ? `did you mean ${near[0]}? ` : '';
  const shown = name.length > 40 ? `${name.slice(0, 40)}...` : name;
  return fail(
    'UNKNOWN_COMPONENT',
    offset,
    `unknown component '${shown}'; ${hint}lines start with one of: ${known.join(', ')} (or @<id> to patch)`,
  );
}

/** True for a catalog component name. */
export function isComponent(name: string): boolean {
  return componentOf(name) !== undefined;
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
