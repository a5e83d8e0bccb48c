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
});
