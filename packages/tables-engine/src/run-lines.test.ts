import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import { confirmPending } from './pending-deletes.js';
import { runLines } from './run-lines.js';

const call = {
  owner: 'person',
  agent: 'coach',
  now: new Date('2026-01-05T07:00:00Z'),
  timeZone: 'Europe/Berlin',
};

describe('runLines', () => {
  it('runs written table lines and answers {ok, failed, results}', async () => {
    const store = createMemoryStore();
    const answer = await runLines(store, {
      ...call,
      lines: [
        'table create Weights Date:date Weight:number:kg Note:text Done:bool',
        'put Weights Date=today-7 Weight=73.5 Note="after run" +Done',
        'put Weights mon Date=today Weight=72kg Note=on Done=off',
        'put Weights Weight=abc',
        'timer 5m Stretch',
        'bogus line',
        'query Weights where="Note~after run" cols=Date|Weight',
        'query Weights group=Date:week avg=Weight +count sort=-Date',
        'query Weights as stat y=Weight good=down',
      ].join('\n'),
    });
    expect(answer.ok.map((o) => o.line)).toEqual([
      'table create Weights Date:date Weight:number:kg Note:text Done:bool',
      'put Weights Date=today-7 Weight=73.5 Note="after run" +Done',
      'put Weights mon Date=today Weight=72kg Note=on Done=off',
    ]);
    expect(answer.failed.map((f) => [f.lineNumber, f.code, f.table, f.line])).toEqual([
      [4, 'VALUE_DOES_NOT_FIT', 'Weights', 'put Weights Weight=abc'],
      [5, 'LINE_NOT_TABLE', '', 'timer 5m Stretch'],
      [6, 'PARSE_ERROR', '', 'bogus line'],
    ]);
    expect(answer.results.map(({ cols, rows, count }) => ({ cols, rows, count }))).toEqual([
      { cols: ['Date', 'Weight'], rows: [['2025-12-29', 73.5]], count: 1 },
      {
        cols: ['Date', 'Weight', 'Count'],
        rows: [
          ['2026-01-05', 72, 1],
          ['2025-12-29', 73.5, 1],
        ],
        count: 2,
      },
      { cols: ['Date', 'Weight', 'Note', 'Done'], rows: expect.any(Array), count: 2 },
    ]);
    expect(answer.results[2]!.view).toMatchObject({
      kind: 'stat',
      value: 72,
      change: -1.5,
      spark: [73.5, 72],
    });
  });

  it('returns deletes as pending until the person taps Delete', async () => {
    const store = createMemoryStore();
    await runLines(store, { ...call, lines: 'table create T A:text\nput T k A=x' });
    const answer = await runLines(store, { ...call, lines: 'put T k +delete\ntable drop T' });
    expect(answer.pending.map((p) => [p.kind, p.prompt, p.line])).toEqual([
      ['row', 'Delete row k from T?', 'put T k +delete'],
      ['table', 'Delete table T and all its rows?', 'table drop T'],
    ]);
    await confirmPending(store, { owner: 'person', agent: 'coach', id: answer.pending[0]!.id });
    expect((await store.getTable({ owner: 'person', holder: 'coach', name: 'T' }))!.rowCount).toBe(0);
  });

  it('refuses a call of more than 50 lines before running any', async () => {
    const store = createMemoryStore();
    const lines = ['table create T A:number', ...Array.from({ length: 50 }, (_, i) => `put T A=${i}`)].join(
      '\n',
    );
    const answer = await runLines(store, { ...call, lines });
    expect(answer.failed).toEqual([
      expect.objectContaining({
        code: 'LIMIT_LINES',
        error: expect.stringContaining('this call has 51 lines'),
      }),
    ]);
    expect(await store.listTables('person')).toEqual([]);
  });
});
