// Patch lines `@<id> <prop>=<value> ...`: change props of a component written earlier (on this or an earlier screen).
import { componentOf } from './catalog/index.js';
import { settingOf } from './component-args.js';
import { fail } from './fault.js';
import type { PatchOp, PatchValue } from './ops.js';
import { formatNumber, formatWord, hasPipe, splitPipes, type Term, textOf } from './terms.js';

/** Reads the props of a patch line; when the component was written earlier in the same text its props are checked. */
export function readPatch(
  id: string,
  terms: Term[],
  source: string,
  headEnd: number,
  earlier: { preset: string; props: Record<string, unknown> } | undefined,
): PatchOp {
  const props: Record<string, PatchValue> = {};
  for (const term of terms) {
    const setting = settingOf(term);
    if (!setting) {
      fail(
        'UNEXPECTED_ARGUMENT',
        term.start,
        `a patch line is written @${id} <prop>=<value> ... (got '${source.slice(term.start, term.end)}')`,
      );
    }
    if (setting.name in props)
      fail('REPEATED_SETTING', term.start, `@${id} sets ${setting.name} twice; keep one`);
    props[setting.name] = patchValue(setting.value, source);
    if (earlier) checkPatchedProp(earlier.preset, setting.name, term.start);
  }
  if (terms.length === 0) {
    fail(
      'PATCH_NEEDS_PROPS',
      headEnd,
      `@${id} changes nothing; write @${id} <prop>=<value>, like @${id} label="New label"`,
    );
  }
  const op: PatchOp = { op: 'patch', id, props };
  if (earlier) op.preset = earlier.preset;
  return op;
}

function checkPatchedProp(preset: string, prop: string, offset: number): void {
  const spec = componentOf(preset)!;
  const shape = (spec.props as unknown as { shape?: Record<string, unknown> }).shape;
  const names = shape ? Object.keys(shape) : Object.keys(spec.defaults);
  if (!names.includes(prop)) {
    fail('UNKNOWN_PROP', offset, `${preset} has no prop ${prop} to patch (props: ${names.join(', ')})`);
  }
}

function patchValue(tokens: Term['tokens'], source: string): PatchValue {
  if (tokens.length === 0) return null;
  if (hasPipe(tokens)) return splitPipes(tokens).map((part) => textOf(source, part));
  if (tokens.length === 1) {
    const [token] = tokens;
    if (token!.type === 'NumberLit') return Number(token!.image);
    if (token!.type === 'OnOff') return token!.image === 'on';
  }
  return textOf(source, tokens);
}

/** Canonical line of a patch op. */
export function formatPatch(op: PatchOp): string {
  const parts = [`@${op.id}`];
  for (const [name, value] of Object.entries(op.props)) parts.push(`${name}=${formatPatchValue(value)}`);
  return parts.join(' ');
}

function formatPatchValue(value: PatchValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.map((v) => (v === '' ? '""' : formatWord(v))).join('|');
  return formatWord(value);
}
