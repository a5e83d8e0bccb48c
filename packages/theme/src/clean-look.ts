// cleanLook: doc2's cleaning of an agent's theme object (known keys, known words, #RRGGBB) to <= 2 KB.
import { isHex } from './hex.js';
import { normalizeTimestamp } from './timestamp.js';
import { LOOK_WORDS, type Look, type LookStyle, STYLE_WORDS } from './vocabulary.js';

/** doc2: a theme is at most 2 KB (2,048 bytes of UTF-8 JSON). */
export const LOOK_MAX_BYTES = 2048;

/** The order keys appear in a cleaned look, so equal looks serialize identically. */
export const LOOK_KEYS = [
  'preset',
  'accent',
  'bg',
  'radius',
  'font',
  'weight',
  'motion',
  'pace',
  'ease',
  'enter',
  'pulse',
  'style',
  'at',
  'by',
] as const satisfies readonly (keyof Look)[];

/** True for a JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A look word from untrusted input: trimmed and lowercased, kept only when it is in `words`. */
function cleanWord<W extends string>(value: unknown, words: readonly W[]): W | undefined {
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return (words as readonly string[]).includes(word) ? (word as W) : undefined;
}

function cleanHex(value: unknown): string | undefined {
  const hex = typeof value === 'string' ? value.trim() : undefined;
  return isHex(hex) ? hex.toLowerCase() : undefined;
}

function cleanStyle(value: unknown): LookStyle | undefined {
  if (!isPlainObject(value)) return undefined;
  const entries = (Object.keys(STYLE_WORDS) as (keyof typeof STYLE_WORDS)[]).flatMap((key) => {
    const word = Object.hasOwn(value, key) ? cleanWord(value[key], STYLE_WORDS[key]) : undefined;
    return word === undefined ? [] : [[key, word] as const];
  });
  return entries.length > 0 ? (Object.fromEntries(entries) as LookStyle) : undefined;
}

/**
 * Cleans an untrusted theme object the way doc2 says the registry does: keeps only the known keys,
 * known words (trimmed, any case) and `#RRGGBB` colours (written lowercase), an ISO 8601 `at`
 * (written as UTC), and drops everything else without complaint. Anything that is not an object
 * cleans to `{}`. The result is at most {@link LOOK_MAX_BYTES} as JSON, by construction: every kept
 * value is a short word, a hex colour or a timestamp.
 *
 * @example
 * ```ts
 * cleanLook({ preset: 'Ocean', accent: '#1B7FA6', radius: 'huge', extra: 1, style: { chart: 'bar' } });
 * // { preset: 'ocean', accent: '#1b7fa6', style: { chart: 'bar' } }
 * ```
 */
export function cleanLook(input: unknown): Look {
  if (!isPlainObject(input)) return {};
  const look: Record<string, unknown> = {};
  for (const key of LOOK_KEYS) {
    if (!Object.hasOwn(input, key)) continue;
    const value = input[key];
    let clean: unknown;
    if (key === 'accent' || key === 'bg') clean = cleanHex(value);
    else if (key === 'style') clean = cleanStyle(value);
    else if (key === 'at') clean = normalizeTimestamp(value) ?? undefined;
    else clean = cleanWord(value, LOOK_WORDS[key]);
    if (clean !== undefined) look[key] = clean;
  }
  return look as Look;
}

/**
 * Bytes of a value's JSON in UTF-8: the measure of doc2's size limits.
 *
 * @example
 * ```ts
 * jsonByteLength({ accent: '#1b7fa6' }); // 20
 * ```
 */
export function jsonByteLength(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? '').length;
}
