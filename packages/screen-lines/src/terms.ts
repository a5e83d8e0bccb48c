// Terms (runs of adjacent tokens) and how their text and values are read: quotes, pipes, typed values.

import { fail } from './fault.js';
import type { LineValue } from './ops.js';
import type { Token } from './scan.js';

/**
 * The furthest `today±N` may reach, in days (about 100 years). Beyond it the date leaves the four-digit
 * years a stored date is written in, and the phone could not resolve it: the line is refused here instead.
 */
export const MAX_TODAY_OFFSET = 36_525;

/** A run of tokens with no whitespace between them; `start`/`end` are offsets into the source (end exclusive). */
export interface Term {
  tokens: Token[];
  start: number;
  end: number;
}

/** Removes the quotes of a quoted token and resolves `\"`, `\\`, `\n`, `\t` (other escapes stay as written). */
export function unquote(image: string): string {
  const inner = image.slice(1, -1);
  if (!inner.includes('\\')) return inner;
  return inner.replace(/\\(.)/g, (_, c: string) => {
    if (c === 'n') return '\n';
    if (c === 't') return '\t';
    if (c === '"' || c === '\\') return c;
    return `\\${c}`;
  });
}

/** The source text a token run covers. */
export function rawText(source: string, tokens: Token[]): string {
  if (tokens.length === 0) return '';
  const last = tokens[tokens.length - 1]!;
  return source.slice(tokens[0]!.startOffset, last.end);
}

/** The text a token run means: a lone quoted string without its quotes, otherwise the source as written. */
export function textOf(source: string, tokens: Token[]): string {
  if (tokens.length === 1 && tokens[0]!.type === 'Quoted') return unquote(tokens[0]!.image);
  return rawText(source, tokens);
}

/**
 * {@link textOf} of `tokens[from..to)`, read in place: readers walk the parts of a list this way instead of slicing a
 * token array for each part.
 */
export function textOfRange(source: string, tokens: Token[], from: number, to: number): string {
  if (to <= from) return '';
  const first = tokens[from]!;
  if (to - from === 1 && first.type === 'Quoted') return unquote(first.image);
  return source.slice(first.startOffset, tokens[to - 1]!.end);
}

/** {@link rawText} of `tokens[from..to)`. */
export function rawRange(source: string, tokens: Token[], from: number, to: number): string {
  return to <= from ? '' : source.slice(tokens[from]!.startOffset, tokens[to - 1]!.end);
}

/** Index of the first `|` token in `tokens[from..to)`, or `to`. */
export function pipeAt(tokens: Token[], from: number, to: number): number {
  for (let i = from; i < to; i++) if (tokens[i]!.type === 'Pipe') return i;
  return to;
}

/** Splits a token run on `|` tokens (outside quotes, since a quoted string is one token). */
export function splitPipes(tokens: Token[]): Token[][] {
  // Each part is sliced at its final size: pushing into an empty array allocates room for 17 tokens.
  const parts: Token[][] = [];
  let from = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.type === 'Pipe') {
      parts.push(tokens.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(tokens.slice(from));
  return parts;
}

/** True when the run holds a `|` token. */
export function hasPipe(tokens: Token[]): boolean {
  for (const token of tokens) if (token.type === 'Pipe') return true;
  return false;
}

/**
 * Types a written value by its tokens from `from` on (doc3 "Written values"): nothing is `empty`, several tokens are
 * text.
 * Refuses the line (INVALID_VALUE) for a `today±N` beyond {@link MAX_TODAY_OFFSET}.
 */
export function lineValueOf(source: string, tokens: Token[], from = 0): LineValue {
  const count = tokens.length - from;
  if (count <= 0) return { kind: 'empty' };
  if (count > 1)
    return { kind: 'text', value: source.slice(tokens[from]!.startOffset, tokens[tokens.length - 1]!.end) };
  const token = tokens[from]!;
  const image = token.image;
  switch (token.type) {
    case 'NumberLit':
      return { kind: 'number', value: Number(image), text: image };
    case 'DateDay':
      return { kind: 'date', value: image };
    case 'DateTime':
      return { kind: 'datetime', value: image };
    case 'Today': {
      const offset = image.length > 5 ? Number(image.slice(5)) : 0;
      if (!(Math.abs(offset) <= MAX_TODAY_OFFSET)) {
        fail(
          'INVALID_VALUE',
          token.startOffset,
          `${image} is out of range: today can move at most ${MAX_TODAY_OFFSET} days (about 100 years); write a date like 2026-03-01 instead`,
        );
      }
      return { kind: 'today', offset };
    }
    case 'Now':
      return { kind: 'now' };
    case 'OnOff':
      return { kind: 'bool', value: image === 'on' };
    case 'Quoted':
      return { kind: 'text', value: unquote(image) };
    default:
      return { kind: 'text', value: image };
  }
}

/** Characters a bare word may hold when printed by `format` (anything else is printed quoted). */
const SAFE_WORD = /^[\p{L}\p{N}_.,!?'()&%*#$/-]+$/u;

/** Quotes a string for a Screen Lines line, escaping `"`, `\` and line breaks. */
export function quote(text: string): string {
  return `"${text.replace(/[\\"\n\r\t]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : `\\${c}`))}"`;
}

/**
 * Prints a string so that it reads back as the same text in one term: bare when it is a plain word that the
 * tokenizer would not type (not a number, date, today, now, on/off), otherwise quoted.
 */
export function formatWord(text: string): string {
  if (SAFE_WORD.test(text) && !TYPED_WORD.test(text) && !text.startsWith('-')) return text;
  return quote(text);
}

const TYPED_WORD =
  /^(?:-?(?:\d+(?:\.\d+)?|\.\d+)|\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2})?|today(?:[+-]\d+)?|now|on|off)$/;

/** Prints free text (labels, questions): bare when every word is plain and single-spaced, otherwise quoted. */
export function formatText(text: string): string {
  if (text.length > 0 && text.split(' ').every((w) => w.length > 0 && SAFE_WORD.test(w))) return text;
  return quote(text);
}

/** Prints a {@link LineValue} the way the tokenizer reads it back. */
export function formatLineValue(value: LineValue): string {
  switch (value.kind) {
    case 'number':
      return value.text;
    case 'text':
      return value.value === '' ? '""' : formatWord(value.value);
    case 'date':
    case 'datetime':
      return value.value;
    case 'today':
      return value.offset === 0 ? 'today' : `today${value.offset > 0 ? '+' : ''}${value.offset}`;
    case 'now':
      return 'now';
    case 'bool':
      return value.value ? 'on' : 'off';
    case 'empty':
      return '';
  }
}

/** Prints a number in plain decimal (never exponent notation, which the tokenizer would not read as a number). */
export function formatNumber(n: number): string {
  if (Object.is(n, -0)) return '-0';
  const s = String(n);
  if (!s.includes('e')) return s;
  if (Math.abs(n) >= 1) return BigInt(n).toString();
  return n.toFixed(100).replace(/0+$/, '');
}
