import { describe, expect, it } from 'vitest';
import { compileQuery } from './compile-sql.js';
import type { QueryPlan } from './query-plan.js';

describe('compileQuery', () => {
  it('puts where, group, aggregates, order and limit in SQL', () => {
    const plan: QueryPlan = {
      kind: 'totals',
      where: [{ col: 'Note', isKey: false, type: 'text', op: '~', value: 'run', byDay: false }],
      group: { col: 'Date', type: 'date', by: 'week' },
      aggregates: [
        { fn: 'sum', col: 'Km', type: 'number' },
        { fn: 'count', type: 'number' },
      ],
      sort: [{ index: 2, type: 'number', desc: true }],
      limit: 10,
      output: [
        { name: 'Date', type: 'date' },
        { name: 'Km', type: 'number' },
        { name: 'Count', type: 'number' },
      ],
    };
    const slots: Record<string, string> = { Date: 'c0', Km: 'c1', Note: 'c2' };
    const { sql, params } = compileQuery(plan, 3, (c) => slots[c]!);
    expect(sql).toBe(
      "SELECT count(*) OVER () AS n, date(c0, 'weekday 0', '-6 days') AS o0, sum(c1) AS o1, count(*) AS o2 FROM te_rows " +
        'WHERE table_id = ? AND instr(lower(c2), lower(?)) > 0 GROUP BY o0 ' +
        'ORDER BY (o2 IS NULL), o2 DESC, (o0 IS NULL), o0 LIMIT ?',
    );
    expect(params).toEqual([3, 'run', 10]);
  });

  it('counts matched rows apart so ORDER BY + LIMIT keeps a top-N sort', () => {
    const plan: QueryPlan = {
      kind: 'rows',
      where: [{ col: 'Date', isKey: false, type: 'date', op: '>=', value: '2026-01-01', byDay: true }],
      cols: ['key', 'Km'],
      sort: [{ col: 'Km', isKey: false, type: 'number', desc: true }],
      limit: 5,
      output: [
        { name: 'key', type: 'text' },
        { name: 'Km', type: 'number' },
      ],
    };
    const slots: Record<string, string> = { Date: 'c0', Km: 'c1' };
    expect(compileQuery(plan, 1, (c) => slots[c]!)).toEqual({
      sql:
        'SELECT key, key, c1 FROM te_rows WHERE table_id = ? AND substr(c0, 1, 10) >= ? ' +
        'ORDER BY (c1 IS NULL), c1 DESC, seq LIMIT ?',
      params: [1, '2026-01-01', 5],
      countSql: 'SELECT count(*) FROM te_rows WHERE table_id = ? AND substr(c0, 1, 10) >= ?',
    });
  });
});
