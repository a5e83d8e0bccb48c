// Property test written once: random tables and random queries give the same answers on a store as on the memory store.
import type { LineValue, QueryProps } from '@screen-service/screen-lines';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Cell,
  createMemoryStore,
  DEFAULT_LIMITS,
  planQuery,
  runOps,
  type TableStore,
} from '../src/index.js';
import { put, table } from './ops.js';

const COLS = { T: 'text', N: 'number', D: 'date', B: 'bool' } as const;
type Name = keyof typeof COLS;
const NAMES = Object.keys(COLS) as Name[];

const text = fc.string({
  unit: fc.constantFrom('a', 'A', 'b', 'B', 'é', 'É', 'z', ' ', '𝔸', '\uffee'),
  maxLength: 4,
});
const number = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
const day = fc.constantFrom(
  '2025-12-28',
  '2025-12-29',
  '2025-12-31',
  '2026-01-01',
  '2026-01-04',
  '2026-01-05',
  '2026-02-01',
);
const date = fc.oneof(
  day,
  fc.tuple(day, fc.constantFrom('T00:00', 'T09:30', 'T23:59')).map(([d, t]) => d + t),
);
const VALUES: Record<Name, fc.Arbitrary<Cell>> = { T: text, N: number, D: date, B: fc.boolean() };

const row = fc.record({
  key: fc.option(fc.constantFrom('k1', 'k2', 'K1', 'k3'), { nil: undefined }),
  values: fc.record(
    Object.fromEntries(NAMES.map((n) => [n, fc.option(VALUES[n], { nil: null })])) as Record<
      Name,
      fc.Arbitrary<Cell>
    >,
    { requiredKeys: [] },
  ),
});

function lineValue(cell: Cell): LineValue {
  if (cell === null) return { kind: 'empty' };
  if (typeof cell === 'number') return { kind: 'number', value: cell, text: String(cell) };
  if (typeof cell === 'boolean') return { kind: 'bool', value: cell };
  return { kind: 'text', value: cell };
}

const where = fc.constantFrom(...NAMES, 'key' as const).chain((col) => {
  const type = col === 'key' ? 'text' : COLS[col];
  const ops =
    type === 'bool'
      ? (['=', '!='] as const)
      : type === 'text'
        ? (['=', '!=', '>', '<=', '~'] as const)
        : (['=', '!=', '>', '<', '>=', '<='] as const);
  const value = col === 'key' ? fc.constantFrom('k1', 'r2', 'K') : type === 'date' ? date : VALUES[col];
  return fc.oneof(
    fc.record({ col: fc.constant(col), op: fc.constantFrom(...ops), value: value.map(lineValue) }),
    fc.record({
      col: fc.constant(col),
      op: fc.constantFrom('=' as const, '!=' as const),
      value: fc.constant({ kind: 'empty' } as const),
    }),
  );
});

const subset = <T>(items: readonly T[]) => fc.subarray([...items], { maxLength: Math.min(2, items.length) });
const props = fc
  .record({
    where: fc.array(where, { maxLength: 2 }),
    totals: fc.boolean(),
    group: fc.option(
      fc.oneof(
        fc.record({ col: fc.constantFrom<Name>('T', 'N', 'B', 'D') }),
        fc.record({
          col: fc.constant<Name>('D'),
          by: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        }),
      ),
      { nil: undefined },
    ),
    sum: subset(['N'] as const),
    avg: subset(['N'] as const),
    min: subset(['N', 'D', 'T'] as const),
    max: subset(['N', 'D', 'T'] as const),
    count: fc.boolean(),
    sortCols: fc.array(fc.constantFrom<string>(...NAMES, 'key'), { maxLength: 2 }),
    desc: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
    limit: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
  })
  .map((p): QueryProps => {
    const base = { table: 'R', where: p.where, cols: [], y: [], as: 'table' as const };
    if (!p.totals) {
      const sort = p.sortCols.map((col, i) => ({ col, desc: p.desc[i]! }));
      return { ...base, sort, sum: [], avg: [], min: [], max: [], count: false, limit: p.limit };
    }
    return {
      ...base,
      ...(p.group ? { group: p.group } : {}),
      sum: p.sum,
      avg: p.avg,
      min: p.min,
      max: p.max,
      count: p.count || !p.group,
      sort: p.count || !p.group ? [{ col: 'Count', desc: p.desc[0]! }] : [],
      limit: p.limit,
    };
  });

/** Rounds numbers so two correct summations agree. */
function rounded(cells: Cell[][]): Cell[][] {
  return cells.map((r) => r.map((c) => (typeof c === 'number' ? Number(c.toPrecision(10)) : c)));
}

const CALL = { owner: 'u', agent: 'a', now: new Date('2026-01-01T12:00:00Z'), timeZone: 'UTC' };

async function fill(
  store: TableStore,
  rows: { key: string | undefined; values: Partial<Record<Name, Cell>> }[],
  call: typeof CALL,
) {
  const ops = [table('R', 'T:text', 'N:number', 'D:date', 'B:bool')];
  for (const r of rows) {
    const values = Object.fromEntries(
      Object.entries(r.values).map(([k, v]) => [k, lineValue((v ?? null) as Cell)]),
    );
    ops.push(put('R', r.key, values));
  }
  for (let i = 0; i < ops.length; i += 50) await runOps(store, { ...call, ops: ops.slice(i, i + 50) });
}

const TYPES = ['text', 'number', 'date', 'bool'] as const;
/** A `table create R ...` that keeps, retypes or drops each column, and may add one. */
const alter = fc
  .record({
    types: fc.tuple(...NAMES.map(() => fc.option(fc.constantFrom(...TYPES), { nil: undefined }))),
    extra: fc.boolean(),
  })
  .map(({ types, extra }) => [
    ...NAMES.flatMap((n, i) => (types[i] ? [`${n}:${types[i]}`] : [])),
    ...(extra || types.every((t) => t === undefined) ? ['X:number'] : []),
  ]);

/** How a store joins the property test. */
export interface StoresAgreeOptions {
  name: string;
  /** A store to compare with a fresh memory store; each run uses an owner of its own, so one store may serve every run. */
  create: () => TableStore | Promise<TableStore>;
  /** Runs of each property (fewer for a slow store). */
  runs?: { alter: number; queries: number };
}

let owners = 0;

/** Random tables, column changes and queries give the same answers on `create`'s store as on a memory store. */
export function runStoresAgree({
  name,
  create,
  runs = { alter: 60, queries: 150 },
}: StoresAgreeOptions): void {
  describe(`memory and ${name} stores agree`, () => {
    it('on changing a table’s columns (conversions, drops, new columns)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(row, { maxLength: 30 }), alter, async (rows, cols) => {
          const memory = createMemoryStore();
          const sqlite = await create();
          const call = { ...CALL, owner: `u${++owners}` };
          await fill(memory, rows, call);
          await fill(sqlite, rows, call);
          for (const store of [memory, sqlite]) await runOps(store, { ...call, ops: [table('R', ...cols)] });
          const ref = { owner: call.owner, holder: 'a', name: 'R' };
          expect(await sqlite.exportTable(ref)).toEqual(await memory.exportTable(ref));
          expect((await memory.exportTable(ref))!.rows).toHaveLength(
            new Set(rows.map((r, i) => r.key ?? i)).size,
          );
        }),
        { numRuns: runs.alter },
      );
    });

    it('on random tables and random queries', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(row, { maxLength: 40 }),
          fc.array(props, { minLength: 1, maxLength: 6 }),
          async (rows, queries) => {
            const memory = createMemoryStore();
            const sqlite = await create();
            const call = { ...CALL, owner: `u${++owners}` };
            await fill(memory, rows, call);
            await fill(sqlite, rows, call);
            const ref = { owner: call.owner, holder: 'a', name: 'R' };
            expect(await sqlite.exportTable(ref)).toEqual(await memory.exportTable(ref));
            const cols = (await memory.getTable(ref))!.cols;
            for (const q of queries) {
              const planned = planQuery(q, cols, { ...call, limits: DEFAULT_LIMITS });
              if (!planned.ok) continue;
              const a = await memory.query(ref, planned.plan);
              const b = await sqlite.query(ref, planned.plan);
              expect({ ...b, rows: rounded(b.rows) }).toEqual({ ...a, rows: rounded(a.rows) });
            }
          },
        ),
        { numRuns: runs.queries },
      );
    });
  });
}
