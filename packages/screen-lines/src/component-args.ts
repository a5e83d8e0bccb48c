// Reads a component line's arguments (positional slots, name=value settings, +flags) into props, driven by the catalog.

import { FIELD_TYPES } from './catalog/shared.js';
import type { ComponentSpec, SettingSpec, SlotSpec } from './catalog/types.js';
import { parseDuration } from './duration.js';
import { fail } from './fault.js';
import { isEquals, type Token } from './scan.js';
import { hasPipe, pipeAt, rawRange, type Term, textOf, textOfRange } from './terms.js';

const FLAG_NAME = /^[A-Za-z_][\w-]*$/;
const FIELD = /^([A-Za-z_][\w-]*):([a-z]*)$/;
const URL_START = /^https?:\/\//;
// Module constants: a literal in the function made a RegExp object for every amount read.
const PERCENT = /^(\d+(?:\.\d+)?)%$/;
const RATIO = /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/;

/** A term that is `+name`. */
export function flagName(term: Term): string | undefined {
  const tokens = term.tokens;
  if (tokens.length !== 2 || tokens[0]!.type !== 'Plus') return undefined;
  const image = tokens[1]!.image;
  return FLAG_NAME.test(image) ? image : undefined;
}

/** True for `[a-z][a-zA-Z0-9]*` (SETTING_NAME), by character codes: this runs for every term of most lines. */
function isSettingName(name: string): boolean {
  const length = name.length;
  const first = name.charCodeAt(0);
  if (!(first >= 97 && first <= 122)) return false;
  for (let i = 1; i < length; i++) {
    const c = name.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57))) return false;
  }
  return true;
}

/** A term that is `name=value` with a lower-case setting name; returns the name and the value tokens. */
export function settingOf(term: Term): { name: string; value: Token[] } | undefined {
  const name = settingNameOf(term);
  return name === undefined ? undefined : { name, value: term.tokens.slice(2) };
}

/** The name of a `name=value` term (its value is `term.tokens` from index 2 on), or undefined. */
function settingNameOf(term: Term): string | undefined {
  const tokens = term.tokens;
  if (tokens.length < 2 || !isEquals(tokens[1]!)) return undefined;
  const name = tokens[0]!.image;
  return isSettingName(name) ? name : undefined;
}

/** Reads the arguments of one component line into props, over the component's defaults (checks not yet run). */
export function readComponentArgs(
  spec: ComponentSpec,
  terms: Term[],
  source: string,
): Record<string, unknown> {
  // Defaults first, then what the line says: a read value lands in its default's place and other keys follow in the
  // order read, which is the `{ ...defaults, ...read }` the reference built, without a second object per line.
  const props: Record<string, unknown> = { ...spec.defaults };
  // Keys written by a flag or setting so far (`in props` cannot tell them from defaults any more).
  let written: string[] | undefined;
  const restSlot = spec.slots[0]?.kind === 'rest' ? spec.slots[0] : undefined;
  if (restSlot) {
    if (terms.length > 0) props[restSlot.prop] = source.slice(terms[0]!.start, terms[terms.length - 1]!.end);
    return props;
  }
  // The terms left for the slots: the line's own list until a flag or setting is taken out of it (most lines have
  // none), then a copy.
  let positional: Term[] | undefined;
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t]!;
    const flag = flagName(term);
    if (flag !== undefined) {
      if (!spec.flags.some((f) => f.name === flag)) {
        const known = spec.flags.map((f) => `+${f.name}`).join(', ');
        fail(
          'UNKNOWN_FLAG',
          term.start,
          `${spec.name} has no flag +${flag}${known ? ` (flags: ${known})` : ' (it takes no flags)'}`,
        );
      }
      props[flag] = true;
      if (written === undefined) written = [flag];
      else written.push(flag);
      positional ??= terms.slice(0, t);
      continue;
    }
    const setting = settingNameOf(term);
    if (setting !== undefined) {
      const known = settingSpec(spec, setting);
      if (known) {
        if (written?.includes(setting))
          fail('REPEATED_SETTING', term.start, `${spec.name} has ${setting}= twice; keep one`);
        props[setting] = readSetting(spec, known, source, term);
        if (written === undefined) written = [setting];
        else written.push(setting);
        positional ??= terms.slice(0, t);
        continue;
      }
      if (!hasPipe(term.tokens) && !spec.slots.some((s) => s.kind === 'data')) {
        const names = spec.settings.map((s) => `${s.name}=`).join(', ');
        fail(
          'UNKNOWN_SETTING',
          term.start,
          `${spec.name} has no setting ${setting}=${names ? ` (settings: ${names})` : ' (it takes no settings)'}; put text with = in quotes`,
        );
      }
    }
    positional?.push(term);
  }
  readSlots(spec, positional ?? terms, source, props);
  return props;
}

/** The component's setting of that name (a loop: `find` made a closure for every setting read). */
function settingSpec(spec: ComponentSpec, name: string): SettingSpec | undefined {
  const settings = spec.settings;
  for (let i = 0; i < settings.length; i++) if (settings[i]!.name === name) return settings[i];
  return undefined;
}

/** Reads the value of a `name=value` term: its tokens from index 2 on. */
function readSetting(spec: ComponentSpec, s: SettingSpec, source: string, term: Term): unknown {
  const value = term.tokens;
  const to = value.length;
  if (s.kind === 'text') return textOfRange(source, value, 2, to);
  if (s.kind === 'list') return readOptions(spec, value, 2, to, source, term, 1, 50);
  const raw = rawRange(source, value, 2, to);
  if (s.kind === 'word') {
    const known = s.words!.indexOf(raw);
    if (known < 0)
      fail(
        'INVALID_VALUE',
        term.start,
        `${spec.name} ${s.name}= must be one of ${s.words!.join(', ')} (got '${raw}')`,
      );
    // The catalog's string, not the fresh slice: the result keeps one object less per setting.
    return s.words![known];
  }
  const only = value[2];
  if (to !== 3 || only!.type !== 'NumberLit') {
    fail('INVALID_VALUE', term.start, `${spec.name} ${s.name}= needs a number (got '${raw}')`);
  }
  // The raw text is the number's text (one token).
  const n = Number(raw);
  if (s.kind === 'int' && !Number.isInteger(n))
    fail('INVALID_VALUE', term.start, `${spec.name} ${s.name}= needs a whole number (got '${raw}')`);
  return n;
}

/** Whether a term can start the given slot (used to end a free-text slot before it). */
function startsSlot(slot: SlotSpec, term: Term, source: string): boolean {
  switch (slot.kind) {
    case 'options':
      return hasPipe(term.tokens);
    case 'data':
      return term.tokens.some(isEquals) || hasPipe(term.tokens);
    case 'fields':
      return FIELD.test(source.slice(term.start, term.end));
    case 'urls':
      return URL_START.test(source.slice(term.start, term.end));
    default:
      return false;
  }
}

/** The index of the term after the last one {@link joinPiped} joined (set by each call; read right after it). */
let joinedNext = 0;

/** Joins a term with the next ones when a `|` touches the space between them (`Soup | Salad`). */
function joinPiped(terms: Term[], at: number): Token[] {
  const own = terms[at]!.tokens;
  let next = at + 1;
  // Nearly always the term stands alone (`Soup|Salad`): its own tokens, read only, need no copy.
  const after = terms[next];
  if (after === undefined || (own[own.length - 1]!.type !== 'Pipe' && after.tokens[0]!.type !== 'Pipe')) {
    joinedNext = next;
    return own;
  }
  const tokens = [...own];
  while (next < terms.length) {
    const last = tokens[tokens.length - 1]!;
    const following = terms[next]!;
    if (last.type !== 'Pipe' && following.tokens[0]!.type !== 'Pipe') break;
    tokens.push(...following.tokens);
    next++;
  }
  joinedNext = next;
  return tokens;
}

function readSlots(spec: ComponentSpec, terms: Term[], source: string, props: Record<string, unknown>): void {
  let i = 0;
  const lineEnd = terms.length > 0 ? terms[terms.length - 1]!.end : 0;
  for (let index = 0; index < spec.slots.length; index++) {
    const slot = spec.slots[index]!;
    const term = terms[i];
    if (slot.kind === 'text') {
      const next = spec.slots[index + 1];
      let end = terms.length;
      if (next) {
        let found = -1;
        for (let k = i; k < terms.length && found < 0; k++)
          if (startsSlot(next, terms[k]!, source)) found = k;
        // `A | B`: the word before a spaced-out pipe already belongs to the options.
        if (found > i && next.kind === 'options' && terms[found]!.tokens[0]!.type === 'Pipe') found--;
        // With no obvious start of the next slot, a following options slot takes the last term.
        end =
          found >= 0
            ? found
            : next.kind === 'options' && next.required
              ? Math.max(i, terms.length - 1)
              : terms.length;
      }
      const text = freeText(terms, i, end, source);
      const any = end > i;
      i = end;
      if (any) props[slot.prop] = text;
      else if (slot.required) missing(spec, slot, term?.start ?? lineEnd);
      continue;
    }
    if (!term) {
      if (slot.required) missing(spec, slot, lineEnd);
      continue;
    }
    switch (slot.kind) {
      case 'options': {
        const joined = joinPiped(terms, i);
        i = joinedNext;
        props[slot.prop] = readOptions(
          spec,
          joined,
          0,
          joined.length,
          source,
          term,
          slot.min ?? 1,
          slot.max ?? 50,
        );
        continue;
      }
      case 'data': {
        const joined = joinPiped(terms, i);
        i = joinedNext;
        props[slot.prop] = readData(spec, joined, source, term, slot.max ?? 100);
        continue;
      }
      case 'fields':
      case 'urls': {
        const taken: Term[] = [];
        while (i < terms.length && startsSlot(slot, terms[i]!, source)) taken.push(terms[i++]!);
        if (taken.length === 0) {
          if (slot.required) missing(spec, slot, term.start);
          continue;
        }
        if (taken.length > (slot.max ?? 50)) {
          fail(
            'TOO_MANY_OPTIONS',
            taken[slot.max ?? 50]!.start,
            `${spec.name} takes at most ${slot.max} ${slot.prop}`,
          );
        }
        props[slot.prop] =
          slot.kind === 'urls'
            ? taken.map((t) => source.slice(t.start, t.end))
            : readFields(spec, taken, source);
        continue;
      }
      case 'word': {
        const raw = source.slice(term.start, term.end);
        const known = slot.words!.indexOf(raw);
        if (known >= 0) {
          props[slot.prop] = slot.words![known];
          i++;
        } else if (slot.required) {
          fail(
            'INVALID_VALUE',
            term.start,
            `${spec.name} needs ${slot.words!.join(', ')} here (got '${raw}'); usage: ${spec.usage}`,
          );
        }
        continue;
      }
      case 'url': {
        const raw = source.slice(term.start, term.end);
        if (URL_START.test(raw)) {
          props[slot.prop] = raw;
          i++;
        } else if (slot.required) {
          fail('INVALID_VALUE', term.start, `${spec.name} needs a URL starting with https:// (got '${raw}')`);
        }
        continue;
      }
      case 'duration': {
        const raw = source.slice(term.start, term.end);
        const seconds = parseDuration(raw);
        if (seconds === undefined) {
          fail(
            'INVALID_DURATION',
            term.start,
            `${spec.name} needs a duration like 90s, 5m or 1h30m (got '${raw}')`,
          );
        }
        props[slot.prop] = seconds;
        i++;
        continue;
      }
      case 'amount':
        Object.assign(props, readAmount(spec, source.slice(term.start, term.end), term));
        i++;
        continue;
      case 'value':
        props[slot.prop] =
          term.tokens.length === 1 && term.tokens[0]!.type === 'NumberLit'
            ? Number(term.tokens[0]!.image)
            : textOf(source, term.tokens);
        i++;
        continue;
    }
  }
  if (i < terms.length) {
    const extra = terms[i]!;
    fail(
      'UNEXPECTED_ARGUMENT',
      extra.start,
      `${spec.name} does not take '${source.slice(extra.start, extra.end)}' here; usage: ${spec.usage}`,
    );
  }
}

/**
 * The text of terms `from`..`to` (exclusive) joined by one space, each read by {@link textOf}. When no term is a lone
 * quoted string and single spaces separate them, that is the source as written: one slice instead of a string per
 * term and a chain of concatenations (which the result would keep, and the collector copy, as several objects).
 */
function freeText(terms: Term[], from: number, to: number, source: string): string {
  if (to <= from) return '';
  let plain = true;
  for (let k = from; k < to && plain; k++) {
    const tokens = terms[k]!.tokens;
    if (tokens.length === 1 && tokens[0]!.type === 'Quoted') plain = false;
    else if (
      k > from &&
      (terms[k]!.start !== terms[k - 1]!.end + 1 || source.charCodeAt(terms[k - 1]!.end) !== 32)
    )
      plain = false;
  }
  if (plain) return source.slice(terms[from]!.start, terms[to - 1]!.end);
  let text = '';
  for (let k = from; k < to; k++) text += (k > from ? ' ' : '') + textOf(source, terms[k]!.tokens);
  return text;
}

function missing(spec: ComponentSpec, slot: SlotSpec, offset: number): never {
  if (slot.kind === 'options' && (slot.min ?? 1) >= 2) {
    fail(
      'TOO_FEW_OPTIONS',
      offset,
      `${spec.name} needs at least two options separated by |, like ${spec.usage}`,
    );
  }
  return fail('MISSING_ARGUMENT', offset, `${spec.name} needs ${slot.hint}; usage: ${spec.usage}`);
}

/** Reads the `|`-separated options of `tokens[from..to)`. */
function readOptions(
  spec: ComponentSpec,
  tokens: Token[],
  from: number,
  to: number,
  source: string,
  term: Term,
  min: number,
  max: number,
): string[] {
  let count = 1;
  for (let i = from; i < to; i++) if (tokens[i]!.type === 'Pipe') count++;
  // Filled at its final size: the result keeps this array, and pushing would reserve 17 slots.
  const options: string[] = new Array(count);
  let partStart = from;
  for (let k = 0; k < count; k++) {
    const partEnd = pipeAt(tokens, partStart, to);
    const text = textOfRange(source, tokens, partStart, partEnd);
    if (text === '') {
      const offset = partEnd > partStart ? tokens[partStart]!.startOffset : term.start;
      fail(
        'EMPTY_OPTION',
        offset,
        `${spec.name} has an empty option; write options like a|b|c with no empty part`,
      );
    }
    for (let j = 0; j < k; j++)
      if (options[j] === text)
        fail('DUPLICATE_OPTION', tokens[partStart]!.startOffset, `${spec.name} lists '${text}' twice`);
    options[k] = text;
    partStart = partEnd + 1;
  }
  if (count < min) {
    fail(
      'TOO_FEW_OPTIONS',
      term.start,
      min >= 2
        ? `${spec.name} needs at least two options separated by |, like ${spec.usage}`
        : `${spec.name} needs at least one option`,
    );
  }
  if (count > max)
    fail('TOO_MANY_OPTIONS', term.start, `${spec.name} takes at most ${max} options (got ${count})`);
  return options;
}

/** Reads `<label>=<number>` parts joined by `|` from `tokens`. */
function readData(spec: ComponentSpec, tokens: Token[], source: string, term: Term, max: number) {
  let count = 1;
  for (let i = 0; i < tokens.length; i++) if (tokens[i]!.type === 'Pipe') count++;
  // Filled at its final size (the result keeps it); parts are read in place rather than sliced.
  const data: { label: string; value: number }[] = new Array(count);
  let from = 0;
  for (let k = 0; k < count; k++) {
    const to = pipeAt(tokens, from, tokens.length);
    let eq = -1;
    for (let j = from; j < to; j++) {
      if (isEquals(tokens[j]!)) {
        eq = j;
        break;
      }
    }
    if (eq <= from || to !== eq + 2 || tokens[eq + 1]!.type !== 'NumberLit') {
      const offset = to > from ? tokens[from]!.startOffset : term.start;
      fail(
        'INVALID_DATA',
        offset,
        `${spec.name} data is written <label>=<number> joined by | (got '${rawRange(source, tokens, from, to)}')`,
      );
    }
    // A lone quoted label without its quotes, otherwise the label as written.
    const label = textOfRange(source, tokens, from, eq);
    data[k] = { label, value: Number(tokens[eq + 1]!.image) };
    from = to + 1;
  }
  if (count > max) fail('TOO_MANY_OPTIONS', term.start, `${spec.name} takes at most ${max} data points`);
  return data;
}

function readFields(spec: ComponentSpec, terms: Term[], source: string) {
  // Made at its final size: the result keeps it.
  const fields: { key: string; type: string }[] = new Array(terms.length);
  for (let k = 0; k < terms.length; k++) {
    const term = terms[k]!;
    const [, key, type] = FIELD.exec(source.slice(term.start, term.end))!;
    const known = (FIELD_TYPES as readonly string[]).indexOf(type!);
    if (known < 0) {
      fail(
        'INVALID_FIELD',
        term.start,
        `${spec.name} field ${key} has type '${type}'; use one of ${FIELD_TYPES.join(', ')}`,
      );
    }
    for (let j = 0; j < k; j++)
      if (fields[j]!.key === key)
        fail('INVALID_FIELD', term.start, `${spec.name} has the field ${key} twice`);
    fields[k] = { key: key!, type: FIELD_TYPES[known]! };
  }
  return fields;
}

function readAmount(spec: ComponentSpec, raw: string, term: Term): { value: number; max: number } {
  const percent = PERCENT.exec(raw);
  if (percent) return { value: Number(percent[1]), max: 100 };
  const ratio = RATIO.exec(raw);
  if (ratio) return { value: Number(ratio[1]), max: Number(ratio[2]) };
  return fail(
    'INVALID_VALUE',
    term.start,
    `${spec.name} needs <done>/<total> or <percent>% like 3/10 or 40% (got '${raw}')`,
  );
}
