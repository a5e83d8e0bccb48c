// format(ops): canonical Screen Lines that parse back to the same ops.
import { componentOf } from './catalog/index.js';
import type { ComponentSpec, SlotSpec } from './catalog/types.js';
import { formatDuration } from './duration.js';
import { ScreenLinesError } from './errors.js';
import type { AddOp, Op, QueryProps } from './ops.js';
import { formatPatch } from './patch.js';
import { formatQueryArgs } from './query.js';
import { formatTableWord } from './table-words.js';
import { formatNumber, formatText, formatWord, quote } from './terms.js';
import { formatGroup, formatTheme } from './theme-group.js';

/**
 * Prints ops as canonical Screen Lines, one op per line. For ops that `parse` produced (with the default
 * `idStart`), `parse(format(ops)).ops` deep-equals `ops`.
 *
 * @example
 * ```ts
 * format([{ op: 'add', preset: 'timer', id: 'n1', props: { seconds: 300, label: 'Stretch' } }]);
 * // 'timer 5m Stretch'
 * ```
 */
export function format(ops: readonly Op[]): string {
  if (!Array.isArray(ops))
    throw new ScreenLinesError('INVALID_ARGUMENT', 'format(ops) takes an array of ops');
  let position = 0;
  return ops
    .map((op) => {
      switch (op.op) {
        case 'add':
          position++;
          return formatAdd(op, position);
        case 'patch':
          return formatPatch(op);
        case 'group':
          return formatGroup(op);
        case 'end':
          return 'end';
        case 'theme':
          return formatTheme(op);
        case 'table':
        case 'drop':
        case 'put':
          return formatTableWord(op);
        default:
          throw new ScreenLinesError('INVALID_ARGUMENT', `format cannot print op ${JSON.stringify(op)}`);
      }
    })
    .join('\n');
}

function formatAdd(op: AddOp, position: number): string {
  const spec = componentOf(op.preset);
  if (!spec) throw new ScreenLinesError('INVALID_ARGUMENT', `format: unknown preset '${op.preset}'`);
  const head = op.id === `n${position}` ? op.preset : `${op.preset}@${op.id}`;
  const args =
    op.preset === 'query' ? formatQueryArgs(op.props as unknown as QueryProps) : formatArgs(spec, op.props);
  return args === '' ? head : `${head} ${args}`;
}

/** Prints component props as arguments: slots in order, then settings that differ from their default, then flags. */
export function formatArgs(spec: ComponentSpec, props: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const slot of spec.slots) {
    const value = props[slot.prop];
    if (
      !slot.required &&
      (value === undefined || JSON.stringify(value) === JSON.stringify(spec.defaults[slot.prop]))
    ) {
      continue;
    }
    const printed = formatSlot(slot, props);
    if (printed !== undefined) parts.push(printed);
  }
  for (const setting of spec.settings) {
    const value = props[setting.name];
    if (value === undefined || value === spec.defaults[setting.name]) continue;
    if (typeof value === 'number') parts.push(`${setting.name}=${formatNumber(value)}`);
    else if (Array.isArray(value)) parts.push(`${setting.name}=${value.map(formatOption).join('|')}`);
    else parts.push(`${setting.name}=${setting.kind === 'word' ? String(value) : formatWord(String(value))}`);
  }
  for (const flag of spec.flags) if (props[flag.name] === true) parts.push(`+${flag.name}`);
  return parts.join(' ');
}

function formatSlot(slot: SlotSpec, props: Record<string, unknown>): string | undefined {
  const value = props[slot.prop];
  switch (slot.kind) {
    case 'rest':
      return String(value);
    case 'text': {
      const text = String(value ?? '');
      // Questions, prompts and titles print quoted (as the usage shows); labels print bare when plain.
      return slot.hint.startsWith('"') ? quote(text) : formatText(text);
    }
    case 'options':
      return (value as string[]).map(formatOption).join('|');
    case 'data':
      return (value as { label: string; value: number }[])
        .map((d) => `${formatOption(d.label)}=${formatNumber(d.value)}`)
        .join('|');
    case 'fields':
      return (value as { key: string; type: string }[]).map((f) => `${f.key}:${f.type}`).join(' ');
    case 'urls':
      return (value as string[]).join(' ');
    case 'url':
      return value === undefined ? undefined : String(value);
    case 'duration':
      return formatDuration(value as number);
    case 'word':
      return String(value);
    case 'amount': {
      const max = props.max as number;
      const done = formatNumber(value as number);
      return max === 100 ? `${done}%` : `${done}/${formatNumber(max)}`;
    }
    case 'value':
      return typeof value === 'number' ? formatNumber(value) : formatWord(String(value));
  }
}

/** An option, card or label inside a `|` list: bare when plain, otherwise quoted. */
function formatOption(text: string): string {
  return /^[\p{L}\p{N}_.,!?'()&%*#$/-]+$/u.test(text) ? text : quote(text);
}
