// Fits a written value (LineValue) to its column type, the same way for puts and for where clauses.

import { type LineValue, MAX_TODAY_OFFSET } from '@screen-service/screen-lines';
import { isDay, isDayTime } from './dates.js';
import type { TablesErrorCode } from './errors.js';
import type { Cell, Column, ColumnType } from './model.js';
import { resolveNow, resolveToday } from './time-zone.js';

/** What fitting needs besides the value: the moment the line lands, the person's time zone, the text limit. */
export interface FitContext {
  now: Date;
  timeZone: string;
  maxText: number;
}

/** A fitted cell, or the reason it does not fit. */
export type FitResult = { ok: true; cell: Cell } | { ok: false; code: TablesErrorCode; message: string };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Reads `72.5`, and with a unit `72.5kg` or `72.5 kg`; undefined when the text is not such a number. */
export function parseNumberText(text: string, unit?: string): number | undefined {
  let body = text.trim();
  if (unit && body.toLowerCase().endsWith(unit.toLowerCase())) body = body.slice(0, -unit.length).trim();
  if (!NUMBER.test(body)) return undefined;
  const n = Number(body);
  return Number.isFinite(n) ? n : undefined;
}

/** Reads on/off/true/false (any case); undefined otherwise. */
export function parseBoolText(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'on' || t === 'true') return true;
  if (t === 'off' || t === 'false') return false;
  return undefined;
}

/** The value as the person wrote it, for messages and for text columns. */
export function writtenText(value: LineValue): string {
  switch (value.kind) {
    case 'number':
      return value.text;
    case 'text':
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

const EXAMPLE: Record<ColumnType, (name: string) => string> = {
  text: (n) => `${n}="some words"`,
  number: (n) => `${n}=72.5`,
  date: (n) => `${n}=2026-03-01 or ${n}=today`,
  bool: (n) => `${n}=on or ${n}=off`,
};

function refuse(col: Column, value: LineValue): FitResult {
  return {
    ok: false,
    code: 'VALUE_DOES_NOT_FIT',
    message: `${col.name} is a ${col.type} column and '${writtenText(value)}' is not a ${col.type}; write ${EXAMPLE[col.type](col.name)}`,
  };
}

function fitText(value: LineValue, col: Column, ctx: FitContext): FitResult {
  const text = writtenText(value);
  if (text.length > ctx.maxText) {
    return {
      ok: false,
      code: 'LIMIT_TEXT',
      message: `${col.name} holds at most ${ctx.maxText} characters of text; this value has ${text.length}; shorten it`,
    };
  }
  return { ok: true, cell: text };
}

function fitDate(value: LineValue, col: Column, ctx: FitContext): FitResult {
  switch (value.kind) {
    case 'today': {
      // Lines stored before the parser refused far offsets still arrive here: refuse, never throw.
      const cell =
        Math.abs(value.offset) <= MAX_TODAY_OFFSET ? resolveToday(ctx.now, ctx.timeZone, value.offset) : '';
      if (isDay(cell)) return { ok: true, cell };
      return {
        ok: false,
        code: 'VALUE_DOES_NOT_FIT',
        message: `${col.name}: '${writtenText(value)}' is out of range; today can move at most ${MAX_TODAY_OFFSET} days; write ${EXAMPLE.date(col.name)}`,
      };
    }
    case 'now':
      return { ok: true, cell: resolveNow(ctx.now, ctx.timeZone) };
    case 'date':
    case 'datetime':
    case 'text':
      if (isDay(value.value) || isDayTime(value.value)) return { ok: true, cell: value.value };
      return refuse(col, value);
    default:
      return refuse(col, value);
  }
}

/**
 * Fits one written value to a column: a cell, or a reason a model can act on.
 *
 * @example
 * ```ts
 * fitValue({ kind: 'today', offset: -1 }, { name: 'Date', type: 'date' }, { now, timeZone: 'UTC', maxText: 1000 });
 * // { ok: true, cell: '2026-03-01' }
 * ```
 */
export function fitValue(value: LineValue, col: Column, ctx: FitContext): FitResult {
  if (value.kind === 'empty') return { ok: true, cell: null };
  switch (col.type) {
    case 'text':
      return fitText(value, col, ctx);
    case 'date':
      return fitDate(value, col, ctx);
    case 'number': {
      if (value.kind === 'number') return { ok: true, cell: value.value };
      const n = value.kind === 'text' ? parseNumberText(value.value, col.unit) : undefined;
      return n === undefined ? refuse(col, value) : { ok: true, cell: n };
    }
    case 'bool': {
      if (value.kind === 'bool') return { ok: true, cell: value.value };
      const b = value.kind === 'text' ? parseBoolText(value.value) : undefined;
      return b === undefined ? refuse(col, value) : { ok: true, cell: b };
    }
  }
}

/** Converts a kept column's cell when `table create` changes its type; what does not fit becomes empty. */
export function convertCell(cell: Cell, from: ColumnType, to: ColumnType, toUnit?: string): Cell {
  if (cell === null || from === to) return cell;
  switch (to) {
    case 'text':
      if (typeof cell === 'boolean') return cell ? 'on' : 'off';
      return String(cell);
    case 'number':
      if (typeof cell === 'boolean') return cell ? 1 : 0;
      return from === 'text' ? (parseNumberText(String(cell), toUnit) ?? null) : null;
    case 'date':
      return from === 'text' && (isDay(String(cell)) || isDayTime(String(cell))) ? cell : null;
    case 'bool':
      if (typeof cell === 'number') return cell === 1 ? true : cell === 0 ? false : null;
      return from === 'text' ? (parseBoolText(String(cell)) ?? null) : null;
  }
}
