// What a tap on each answerable component may carry: exactly the values the renderer offers for its props.
// The props are read the way the renderer (screen-view) reads them, so a screen drawn oddly is checked oddly.

import { FIELD_TYPES } from './shared.js';
import type { TapInput, TapRule, TapRuleResult } from './types.js';

type Props = Readonly<Record<string, unknown>>;

/** A string prop as the renderer reads it ('' when missing). */
export const readText = (props: Props, key: string): string => {
  const v = props[key];
  return typeof v === 'string' ? v : '';
};
/** A list prop as the renderer reads it ([] when not a list). */
export const readList = (props: Props, key: string): string[] => {
  const v = props[key];
  return Array.isArray(v) ? v.map(String) : [];
};
/** A number prop as the renderer reads it. */
export const readNumber = (props: Props, key: string): number | undefined => {
  const v = props[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
};

/** Longest typed answer (ask, and each text field of a form), in characters. */
export const ANSWER_CHARS = 2000;
/** Longest email address (RFC 5321's path limit). */
export const EMAIL_CHARS = 254;
// WHATWG HTML's "valid email address" (what <input type=email> checks) with at least one dot in the domain:
// `name@localhost` is a typo on a phone, not an answer. The renderer checks a field with this same rule.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** True when `text` is an email address the service accepts as an answer (at most 254 characters). */
export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_CHARS && EMAIL.test(text);
}
const DATE = /^(\d{4,6})-(\d{2})-(\d{2})$/;
const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_LINES = /[^\P{Cc}\n\r\t]/u;

/** An accepted tap: the value and fields to keep, and whether it is one of the catalog's quiet events. */
export const pass = (value: unknown, fields: Record<string, unknown> = {}, quiet = false): TapRuleResult => ({
  ok: true,
  quiet,
  value,
  fields,
});

/** A refused tap: what the component accepts, and what was sent (described for the message). */
export const refuse = (accepts: string, got: unknown, field = 'event.value'): TapRuleResult =>
  refuseAs(accepts, describe(got), field);

/** A refusal whose `got` is already in words (`a field "x"`). */
export const refuseAs = (accepts: string, got: string, field = 'event.value'): TapRuleResult => ({
  ok: false,
  field,
  accepts,
  got,
});

/** A sent value in a few words, for the refusal message (long text cut, objects by their shape). */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 39)}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 5).join(', ')}`;
  }
  return typeof value;
}

/** Names in a message: plain when they read plainly, quoted otherwise; at most 12, then how many in all. */
export function names(list: readonly string[]): string {
  const shown = list
    .slice(0, 12)
    .map((n) => (/^[^\s,"][^,"]*$/.test(n) && !/\s$/.test(n) ? n : JSON.stringify(n)));
  return list.length > 12 ? `${shown.join(', ')}, … (${list.length} in all)` : shown.join(', ');
}

/** Refuses the first field the component's events never carry. */
export function onlyFields(tap: TapInput, allowed: readonly string[]): TapRuleResult | null {
  for (const key of Object.keys(tap.fields)) {
    if (!allowed.includes(key)) {
      const carries = ['value', ...allowed].join(', ');
      return refuseAs(`only the event fields ${carries}`, `a field ${JSON.stringify(key)}`, `event.${key}`);
    }
  }
  return null;
}

/** A JSON object (not null, not a list). */
export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when `value` lists distinct members of `from` (one or more unless `empty`). */
function distinctFrom(value: unknown, from: readonly string[], empty: boolean): value is string[] {
  if (!Array.isArray(value) || (!empty && value.length === 0)) return false;
  const seen = new Set<string>();
  for (const v of value) {
    if (typeof v !== 'string' || !from.includes(v) || seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}

/** A real calendar date `YYYY-MM-DD` (years of four to six digits, as a date input gives). */
function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(2000, mo, 0)).getUTCDate();
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (mo === 2 ? (leap ? 29 : 28) : days);
}

/** What a typed answer of `type` must be, in words. */
export function typedAccepts(type: string): string {
  switch (type) {
    case 'long':
      return `text of 1 to ${ANSWER_CHARS} characters`;
    case 'number':
      return 'a number';
    case 'date':
      return 'a date written YYYY-MM-DD';
    case 'email':
      return `an email address like name@example.com (at most ${EMAIL_CHARS} characters)`;
    case 'bool':
      return 'true or false';
    default:
      return `text of 1 to ${ANSWER_CHARS} characters on one line`;
  }
}

/** Whether `value` is a typed answer of `type` (ask, a form field) as the renderer sends one. */
export function isTyped(type: string, value: unknown): boolean {
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'bool':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && isDate(value);
    case 'email':
      return typeof value === 'string' && isEmailAddress(value);
    case 'long':
      return (
        typeof value === 'string' &&
        value.trim() !== '' &&
        value.length <= ANSWER_CHARS &&
        !CONTROL_BUT_LINES.test(value)
      );
    default:
      return (
        typeof value === 'string' &&
        value.trim() !== '' &&
        value.length <= ANSWER_CHARS &&
        !CONTROL.test(value)
      );
  }
}

/** `timer`: `start` (quiet) or `done`, with the timer's own seconds. */
export const timerTap: TapRule = (props, tap) => {
  const extra = onlyFields(tap, ['seconds']);
  if (extra) return extra;
  const seconds = readNumber(props, 'seconds') ?? 60;
  if (tap.value !== 'start' && tap.value !== 'done') return refuse('"start" or "done"', tap.value);
  if (tap.fields.seconds !== undefined && tap.fields.seconds !== seconds) {
    return refuse(`seconds ${seconds} (its own duration)`, tap.fields.seconds, 'event.seconds');
  }
  return pass(tap.value, { seconds }, tap.value === 'start');
};

/** `choose`: one of its options, or with +multi a list of them (each once, in the screen's order). */
export const chooseTap: TapRule = (props, tap) => {
  const extra = onlyFields(tap, []);
  if (extra) return extra;
  const options = readList(props, 'options');
  if (props.multi === true) {
    if (!distinctFrom(tap.value, options, false)) {
      return refuse(`a list of one or more of: ${names(options)} (each once)`, tap.value);
    }
    const picked = tap.value;
    return pass(options.filter((o) => picked.includes(o)));
  }
  if (typeof tap.value !== 'string' || !options.includes(tap.value)) {
    return refuse(`one of: ${names(options)}`, tap.value);
  }
  return pass(tap.value);
};

/** `confirm`: true for its first button, false for its second; the label is the button's. */
export const confirmTap: TapRule = (props, tap) => {
  const extra = onlyFields(tap, ['label']);
  if (extra) return extra;
  const [yes = 'Yes', no = 'No'] = readList(props, 'options');
  if (typeof tap.value !== 'boolean') return refuse(`true (${yes}) or false (${no})`, tap.value);
  const label = tap.value ? yes : no;
  if (tap.fields.label !== undefined && tap.fields.label !== label) {
    return refuse(`the label ${JSON.stringify(label)} with ${tap.value}`, tap.fields.label, 'event.label');
  }
  return pass(tap.value, { label });
};

/** `buttons`: the label of one of its buttons. */
export const buttonsTap: TapRule = (props, tap) => {
  const extra = onlyFields(tap, []);
  if (extra) return extra;
  const options = readList(props, 'options');
  if (typeof tap.value !== 'string' || !options.includes(tap.value)) {
    return refuse(`one of: ${names(options)}`, tap.value);
  }
  return pass(tap.value);
};

/** `checkin`: a step of its scale (min to max, default 1 to 10 for a scale and 1 to 5 otherwise). */
export const checkinTap: TapRule = (props, tap) => {
  const extra = onlyFields(tap, ['kind']);
  if (extra) return extra;
  const kind = readText(props, 'kind') || 'scale';
  const lo = readNumber(props, 'min') ?? 1;
  const hi = readNumber(props, 'max') ?? (kind === 'scale' ? 10 : 5);
  const v = tap.value;
  if (typeof v !== 'number' || v < lo || v > hi || !Number.isInteger(v - lo)) {
    const accepts = hi < lo ? 'no value (its scale is empty)' : `a number from ${lo} to ${hi} in steps of 1`;
    return refuse(accepts, v);
  }
  if (tap.fields.kind !== undefined && tap.fields.kind !== kind) {
    return refuse(`kind ${JSON.stringify(kind)}`, tap.fields.kind, 'event.kind');
  }
  return pass(v, { kind });
};

/** `checklist`: a tick `{item, checked}` (quiet), or Done with the ticked items (each once, maybe none). */
export const checklistTap: TapRule = (props, tap) => {
  const extra = onlyFields(tap, []);
  if (extra) return extra;
  const items = readList(props, 'items');
  const accepts = `a list of its ticked items (each once) from: ${names(items)}, or a tick {"item": <item>, "checked": true|false}`;
  const v = tap.value;
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    const tick =
      keys.length === 2 &&
      typeof v.item === 'string' &&
      items.includes(v.item) &&
      typeof v.checked === 'boolean';
    return tick ? pass({ item: v.item, checked: v.checked }, {}, true) : refuse(accepts, v);
  }
  if (!distinctFrom(v, items, true)) return refuse(accepts, v);
  return pass(items.filter((i) => v.includes(i)));
};

/** `ask`: a typed answer of its type (text, long, number, date, email). */
export const askTap: TapRule = (props, tap) => {
  const extra = onlyFields(tap, []);
  if (extra) return extra;
  const type = readText(props, 'type') || 'text';
  return isTyped(type, tap.value) ? pass(tap.value) : refuse(typedAccepts(type), tap.value);
};

/** `form`: an object of its fields, each of its type; empty fields are left out. */
export const formTap: TapRule = (props, tap) => {
  const extra = onlyFields(tap, []);
  if (extra) return extra;
  const fields = Array.isArray(props.fields) ? (props.fields as { key?: unknown; type?: unknown }[]) : [];
  const types = new Map<string, string>();
  for (const f of fields) {
    if (f && typeof f.key === 'string') types.set(f.key, typeof f.type === 'string' ? f.type : 'text');
  }
  const listed = [...types].map(
    ([k, t]) => `${k} (${(FIELD_TYPES as readonly string[]).includes(t) ? t : 'text'})`,
  );
  const v = tap.value;
  if (!isPlainObject(v)) {
    return refuse(`an object of its fields: ${listed.join(', ') || 'none'}; each may be left out`, v);
  }
  for (const [key, value] of Object.entries(v)) {
    const type = types.get(key);
    if (type === undefined) {
      return refuseAs(`only its fields: ${listed.join(', ') || 'none'}`, `a field ${JSON.stringify(key)}`);
    }
    if (!isTyped(type, value)) {
      return refuse(`${key} as ${typedAccepts(type)}`, value, `event.value.${key}`);
    }
  }
  return pass(v);
};

/** `photo`: how many photos were sent (1 to max); their links come from the uploads, not from the view. */
export const photoTap: TapRule = (props, tap) => {
  const extra = onlyFields(tap, ['photos']);
  if (extra) return extra;
  const max = readNumber(props, 'max') ?? 1;
  const v = tap.value;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) {
    return refuse(max > 1 ? `the number of photos sent, 1 to ${max}` : 'the number of photos sent, 1', v);
  }
  const photos = tap.fields.photos;
  if (
    photos !== undefined &&
    !(
      Array.isArray(photos) &&
      (photos.length === 0 || photos.length === v) &&
      photos.every((p) => typeof p === 'string')
    )
  ) {
    return refuse(`photos as a list of ${v} links (or none)`, photos, 'event.photos');
  }
  return pass(v);
};

/** `deck`: the number of cards when finished; a lower number (from 1) is a card turned, which is quiet. */
export const deckTap: TapRule = (props, tap) => {
  const extra = onlyFields(tap, []);
  if (extra) return extra;
  const count = readList(props, 'cards').length;
  const v = tap.value;
  if (v === count) return pass(v);
  if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v < count) return pass(v, {}, true);
  return refuse(
    count > 1
      ? `${count} (the deck finished) or a card turned, 1 to ${count - 1}`
      : `${count} (the deck finished)`,
    v,
  );
};
