// Tap lines: `[svc] <tap_id> <preset> <key>=<value>` followed by the event JSON (doc1 "tap text"), and the echo.
import { componentOf } from './catalog/index.js';
import type { TapEvent } from './ops.js';
import { formatNumber, formatWord } from './terms.js';

const HEAD = /^\[svc\] (\S+) (\S+)(?: (.*))?$/;

/** Prints one tap value for the tap line: lists joined by `|`, booleans as yes/no, objects flattened. */
function formatTapValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? formatNumber(value) : String(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value === '' ? '""' : formatWord(value);
  if (Array.isArray(value)) return value.map(formatTapValue).join('|');
  return formatWord(JSON.stringify(value));
}

/** The `<key>=<value>` part of a tap line. */
function tapPairs(event: TapEvent): string {
  const spec = componentOf(event.preset);
  const { value } = event;
  // A form's answer is flattened to its fields (keys have no spaces), so the line stays one key=value list.
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const pairs = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `${k}=${formatTapValue(v)}`,
    );
    if (pairs.length > 0) return pairs.join(' ');
  }
  if (event.preset === 'query' && event.op === 'query') return `send=${formatTapValue(event.count ?? value)}`;
  const key =
    spec?.tapKey === 'value' && typeof event.kind === 'string' ? event.kind : (spec?.tapKey ?? 'value');
  return `${key}=${formatTapValue(value)}`;
}

/**
 * Formats a tap as the text an agent receives: the `[svc]` line, then the event JSON on the next line.
 *
 * @example
 * ```ts
 * formatTapLine({ id: 'lunch', preset: 'choose', value: 'Soup' });
 * // '[svc] lunch choose choice=Soup\n{"id":"lunch","preset":"choose","value":"Soup"}'
 * ```
 */
export function formatTapLine(event: TapEvent): string {
  return `[svc] ${event.id} ${event.preset} ${tapPairs(event)}\n${JSON.stringify(event)}`;
}

/**
 * Reads a tap line back into its event: the JSON after the `[svc]` line when present and well formed,
 * otherwise the event rebuilt from the line. Returns `null` for text that is not a tap line (never throws).
 *
 * @example
 * ```ts
 * parseTapLine('[svc] lunch choose choice=Soup\n{"id":"lunch","preset":"choose","value":"Soup"}');
 * // { id: 'lunch', preset: 'choose', value: 'Soup' }
 * parseTapLine('hello'); // null
 * ```
 */
export function parseTapLine(text: string): TapEvent | null {
  if (typeof text !== 'string') return null;
  const newline = text.indexOf('\n');
  const first = (newline < 0 ? text : text.slice(0, newline)).replace(/\r$/, '');
  const head = HEAD.exec(first.trim());
  if (!head) return null;
  const [, id, preset, rest] = head as unknown as [string, string, string, string | undefined];
  if (newline >= 0) {
    const json = fromJson(text.slice(newline + 1).trim());
    if (json && json.id === id && json.preset === preset) return json;
  }
  const pairs = splitPairs(rest ?? '');
  if (pairs.length === 0) return { id, preset, value: null };
  if (pairs.length === 1) return { id, preset, value: readTapValue(pairs[0]![1]) };
  return { id, preset, value: Object.fromEntries(pairs.map(([k, v]) => [k, readTapValue(v)])) };
}

function fromJson(text: string): TapEvent | null {
  if (!text.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const event = value as TapEvent;
      if (typeof event.id === 'string' && typeof event.preset === 'string') return event;
    }
  } catch {
    // Not JSON: fall back to the [svc] line itself.
  }
  return null;
}

/** Splits `a=1 b="x y"` into pairs, honouring quotes. */
function splitPairs(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  const pattern = /([^\s=]+)=("(?:[^"\\]|\\.)*"|\S*)/g;
  for (const match of text.matchAll(pattern)) pairs.push([match[1]!, match[2]!]);
  return pairs;
}

function readTapValue(raw: string): unknown {
  if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) {
    return raw.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
  }
  if (raw === '') return null;
  if (raw === 'yes' || raw === 'no') return raw === 'yes';
  if (/^-?\d+(?:\.\d+)?$/.test(raw)) return Number(raw);
  if (raw.includes('|')) return raw.split('|').map(readTapValue);
  return raw;
}

/**
 * The short echo shown to the person under the screen after a tap (`Soup`, `4 / 5`, `3 photos`).
 *
 * @example
 * ```ts
 * formatEcho({ id: 'lunch', preset: 'choose', value: 'Soup' }); // 'Soup'
 * ```
 */
export function formatEcho(event: TapEvent): string {
  const { value } = event;
  switch (event.preset) {
    case 'confirm':
      return typeof event.label === 'string' ? event.label : value ? 'Yes' : 'No';
    case 'photo':
      return `${value} photo${value === 1 ? '' : 's'}`;
    case 'timer':
      return value === 'done' ? 'Timer done' : 'Timer started';
    case 'deck':
      return 'Done';
    case 'query':
      return event.op === 'query' ? `Sent ${event.count ?? value} rows` : 'Row changed';
  }
  if (Array.isArray(value)) return value.join(', ');
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join(', ');
  }
  return String(value ?? '');
}
