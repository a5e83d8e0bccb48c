// Executes a QueryPlan over rows held in JavaScript (the memory store); the SQLite store compiles the same plan.
import { compareCodePoints, compareForSort, compareValues, foldAscii } from './compare-cells.js';
import { dateBucket } from './dates.js';
import type { Cell } from './model.js';
import type { PlanAggregate, PlanFilter, QueryPlan, QueryRows, TotalsPlan } from './query-plan.js';

/** A row as the memory store keeps it: write order, key and cells by column name. */
export interface PlanRow {
  seq: number;
  key: string;
  values: Record<string, Cell>;
}

function cellOf(row: PlanRow, col: string, isKey: boolean): Cell {
  return isKey ? row.key : (row.values[col] ?? null);
}

function matches(row: PlanRow, f: PlanFilter): boolean {
  let cell = cellOf(row, f.col, f.isKey);
  if (f.value === null) return f.op === '=' ? cell === null : cell !== null;
  if (cell === null) return false;
  if (f.op === '~') return foldAscii(String(cell)).includes(foldAscii(String(f.value)));
  if (f.byDay) cell = String(cell).slice(0, 10);
  // A day without a time counts as its midnight when compared with a day and time.
  else if (f.type === 'date' && String(cell).length === 10) cell = `${cell}T00:00`;
  const c = compareValues(cell, f.value, f.type);
  switch (f.op) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '>':
      return c > 0;
    case '<':
      return c < 0;
    case '>=':
      return c >= 0;
    case '<=':
      return c <= 0;
  }
}

/** Kahan-Babuska-Neumaier sum, the summation SQLite's sum() and avg() use. */
function preciseSum(values: number[]): number {
  let sum = 0;
  let carry = 0;
  for (const v of values) {
    const t = sum + v;
    carry += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + carry;
}

function aggregate(rows: PlanRow[], a: PlanAggregate): Cell {
  if (a.fn === 'count') return rows.length;
  const cells = rows.map((r) => r.values[a.col!] ?? null).filter((c): c is Exclude<Cell, null> => c !== null);
  if (cells.length === 0) return null;
  if (a.fn === 'sum') return preciseSum(cells as number[]);
  if (a.fn === 'avg') return preciseSum(cells as number[]) / cells.length;
  const sign = a.fn === 'min' ? 1 : -1;
  // min/max use the BINARY order in SQLite, also for text.
  const order = (x: Cell, y: Cell) =>
    a.type === 'number' ? (x as number) - (y as number) : compareCodePoints(String(x), String(y));
  return cells.reduce((best, c) => (sign * order(c, best) < 0 ? c : best));
}

function groupOrder(a: Cell, b: Cell, plan: TotalsPlan): number {
  const type = plan.output[0]!.type;
  const c = compareForSort(a, b, type, false);
  if (c !== 0 || a === null || b === null || type !== 'text') return c;
  return compareCodePoints(String(a), String(b));
}

function runTotals(rows: PlanRow[], plan: TotalsPlan): QueryRows {
  const groups = new Map<Cell, PlanRow[]>();
  const group = plan.group;
  if (!group) groups.set(null, rows);
  // Many rows share a date; bucket each distinct date once.
  const buckets = new Map<string, string>();
  const bucketOf = (date: string, by: 'day' | 'week' | 'month') => {
    let bucket = buckets.get(date);
    if (bucket === undefined) {
      bucket = dateBucket(date, by);
      buckets.set(date, bucket);
    }
    return bucket;
  };
  for (const row of group ? rows : []) {
    let value = row.values[group!.col] ?? null;
    if (value !== null && group!.by) value = bucketOf(String(value), group!.by);
    const list = groups.get(value);
    if (list) list.push(row);
    else groups.set(value, [row]);
  }
  const out = [...groups].map(([value, members]) => ({
    value,
    cells: [...(group ? [value] : []), ...plan.aggregates.map((a) => aggregate(members, a))],
  }));
  out.sort((x, y) => {
    for (const s of plan.sort) {
      const c = compareForSort(x.cells[s.index]!, y.cells[s.index]!, s.type, s.desc);
      if (c !== 0) return c;
    }
    return group ? groupOrder(x.value, y.value, plan) : 0;
  });
  return { rows: out.slice(0, plan.limit).map((o) => o.cells), keys: [], count: out.length };
}

/**
 * Runs a plan over rows in first-written order.
 *
 * @example
 * ```ts
 * const { rows, count } = runPlan(tableRows, plan);
 * ```
 */
export function runPlan(rows: PlanRow[], plan: QueryPlan): QueryRows {
  const matched = plan.where.length === 0 ? rows : rows.filter((r) => plan.where.every((f) => matches(r, f)));
  if (plan.kind === 'totals') return runTotals(matched, plan);
  const sorted =
    plan.sort.length === 0
      ? matched
      : [...matched].sort((x, y) => {
          for (const s of plan.sort) {
            const c = compareForSort(cellOf(x, s.col, s.isKey), cellOf(y, s.col, s.isKey), s.type, s.desc);
            if (c !== 0) return c;
          }
          return x.seq - y.seq;
        });
  const shown = sorted.slice(0, plan.limit);
  return {
    rows: shown.map((r) => plan.cols.map((c) => cellOf(r, c, c === 'key'))),
    keys: shown.map((r) => r.key),
    count: matched.length,
  };
}
