// The conformance suite every TableStore runs (hono style): written once, called by each store's test file.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CallContext,
  confirmPending,
  keepPending,
  type LinesAnswer,
  type OpLine,
  runLines,
  runOps,
  type SendView,
  sendEvent,
  type TableStore,
} from '../src/index.js';
import { drop, put, query, sort, table, type Where } from './ops.js';

/** How a store joins the suite. */
export interface StoreConformanceOptions {
  name: string;
  /** A fresh, empty store for each test (a new file, a new schema). */
  create: () => TableStore | Promise<TableStore>;
}

const NOW = new Date('2026-01-01T02:30:00Z');
const CALL: CallContext = { owner: 'u1', agent: 'coach', now: NOW, timeZone: 'UTC' };
const REF = { owner: 'u1', holder: 'coach', name: 'W' };

/** Runs every rule of doc3's tables against the store `create` makes. */
export function runStoreConformance({ name, create }: StoreConformanceOptions): void {
  describe(`${name}: table store conformance`, () => {
    let store: TableStore;
    const run = (ops: OpLine[], extra: Partial<CallContext> = {}): Promise<LinesAnswer> =>
      runOps(store, { ...CALL, ...extra, ops });
    const rows = async (q: OpLine, extra: Partial<CallContext> = {}) => {
      const result = (await run([q], extra)).results[0]!;
      expect(result.error, result.error).toBeUndefined();
      return result;
    };
    const weights = () =>
      run([
        table('W', 'Date:date', 'Weight:number:kg', 'Note:text', 'Done:bool'),
        put('W', undefined, { Date: '2026-01-02', Weight: 80, Note: 'Apple', Done: true }),
        put('W', undefined, { Date: '2025-12-29T08:15', Weight: 81.5, Note: 'banana' }),
        put('W', undefined, { Date: '2026-01-04', Note: 'cherry pie', Done: false }),
        put('W', undefined, { Weight: 79, Note: 'apple' }),
      ]);

    beforeEach(async () => {
      store = await create();
    });

    describe('writes', () => {
      it('creates a table held by the agent and owned by the person', async () => {
        const answer = await run([table('W', 'Date:date', 'Weight:number:kg')]);
        expect(answer.failed).toEqual([]);
        expect(await store.getTable(REF)).toEqual({
          ...REF,
          cols: [
            { name: 'Date', type: 'date' },
            { name: 'Weight', type: 'number', unit: 'kg' },
          ],
          rowCount: 0,
        });
        expect((await store.listTables('u1')).map((t) => t.name)).toEqual(['W']);
        expect(await store.listTables('u1', 'other')).toEqual([]);
      });

      it("another agent's table reads as missing", async () => {
        await weights();
        const other = await run([put('W', undefined, { Weight: 1 }), query('W')], { agent: 'other' });
        expect(other.failed[0]).toMatchObject({ op: 'row', table: 'W', code: 'TABLE_NOT_FOUND' });
        expect(other.results[0]).toMatchObject({ code: 'TABLE_NOT_FOUND', error: 'No table called W yet.' });
      });

      it('appends keyless rows as r1, r2, ... in first-written order', async () => {
        await weights();
        const keys = (await store.exportTable(REF))!.rows.map((r) => r.key);
        expect(keys).toEqual(['r1', 'r2', 'r3', 'r4']);
        await run([
          put('W', 'r6', { Weight: 1 }),
          put('W', undefined, { Weight: 2 }),
          put('W', undefined, { Weight: 3 }),
        ]);
        expect((await store.exportTable(REF))!.rows.map((r) => r.key)).toEqual([
          'r1',
          'r2',
          'r3',
          'r4',
          'r6',
          'r5',
          'r7',
        ]);
      });

      it('a keyed put updates only the named columns, or adds the row', async () => {
        await weights();
        const answer = await run([put('W', 'r2', { Weight: 82 }), put('W', 'mon', { Note: 'new' })]);
        expect(answer.ok.map((o) => o.key)).toEqual(['r2', 'mon']);
        expect(await store.getRow(REF, 'r2')).toEqual({
          key: 'r2',
          values: { Date: '2025-12-29T08:15', Weight: 82, Note: 'banana', Done: null },
        });
        expect((await store.getRow(REF, 'mon'))!.values).toEqual({
          Date: null,
          Weight: null,
          Note: 'new',
          Done: null,
        });
      });

      it('fits values: bools, empties, units, numbers as text, dates as written', async () => {
        await run([table('T', 'A:text', 'N:number:kg', 'B:bool', 'D:date')]);
        const answer = await run([
          put('T', 'k', { A: 42, N: '72.5kg', B: { kind: 'bool', value: true }, D: '2026-02-28T23:59' }),
          put('T', 'k2', { A: true, N: '3 KG', B: 'off', D: '"2026-03-01"'.slice(1, -1) }),
        ]);
        expect(answer.failed).toEqual([]);
        const t = { ...REF, name: 'T' };
        expect((await store.getRow(t, 'k'))!.values).toEqual({
          A: '42',
          N: 72.5,
          B: true,
          D: '2026-02-28T23:59',
        });
        expect((await store.getRow(t, 'k2'))!.values).toEqual({ A: 'on', N: 3, B: false, D: '2026-03-01' });
        await run([put('T', 'k', { A: null, N: null })]);
        expect((await store.getRow(t, 'k'))!.values).toMatchObject({ A: null, N: null, B: true });
      });

      it('resolves today, today±N and now in the given IANA time zone', async () => {
        await run([table('T', 'D:date')]);
        const t = { ...REF, name: 'T' };
        const zone = { timeZone: 'America/New_York' };
        await run(
          [put('T', 'a', { D: 'today' }), put('T', 'b', { D: 'today-1' }), put('T', 'c', { D: 'today+1' })],
          zone,
        );
        await run([put('T', 'd', { D: 'now' }), put('T', 'e', { D: 'now' })], { timeZone: 'Asia/Tokyo' });
        await run([put('T', 'f', { D: 'today' })]);
        const dates = (await store.exportTable(t))!.rows.map((r) => r.values.D);
        expect(dates).toEqual([
          '2025-12-31',
          '2025-12-30',
          '2026-01-01',
          '2026-01-01T11:30',
          '2026-01-01T11:30',
          '2026-01-01',
        ]);
      });

      it("a run logged at 23:30 in New York lands on that day: today's where and the day's group find it", async () => {
        const evening = { now: new Date('2026-11-24T04:30:00Z'), timeZone: 'America/New_York' };
        const answer = await runLines(store, {
          ...CALL,
          ...evening,
          lines: [
            'table create Runs Day:date At:date Km:number',
            'put Runs Day=today At=now Km=5',
            'query Runs where=Day=today',
            'query Runs group=Day:day sum=Km',
            'query Runs group=Day:week +count',
          ].join('\n'),
        });
        expect(answer.failed).toEqual([]);
        expect(answer.results.map((r) => r.rows)).toEqual([
          [['2026-11-23', '2026-11-23T23:30', 5]],
          [['2026-11-23', 5]],
          [['2026-11-23', 1]],
        ]);
      });

      it('refuses a whole line when one value does not fit, leaving the table unchanged', async () => {
        await weights();
        const before = JSON.stringify(await store.exportTable(REF));
        const answer = await run([
          put('W', 'r1', { Note: 'changed', Weight: 'heavy' }),
          put('W', undefined, { Note: 'x', Date: 'tomorrow' }),
          put('W', undefined, { Note: 'x', Nope: 1 }),
          put('W', 'r1', { Done: 7 }),
          put('Nope', undefined, { A: 1 }),
        ]);
        expect(answer.ok).toEqual([]);
        expect(answer.failed.map((f) => f.code)).toEqual([
          'VALUE_DOES_NOT_FIT',
          'VALUE_DOES_NOT_FIT',
          'COLUMN_NOT_FOUND',
          'VALUE_DOES_NOT_FIT',
          'TABLE_NOT_FOUND',
        ]);
        expect(answer.failed[0]).toEqual({
          op: 'row',
          table: 'W',
          key: 'r1',
          code: 'VALUE_DOES_NOT_FIT',
          error: "Weight is a number column and 'heavy' is not a number; write Weight=72.5",
          line: 'put W r1 Note=changed Weight=heavy',
        });
        expect(answer.failed[2]!.error).toBe("W has no column 'Nope'; its columns: Date, Weight, Note, Done");
        expect(JSON.stringify(await store.exportTable(REF))).toBe(before);
      });

      it('changes columns by the alter rules and never drops rows', async () => {
        await weights();
        const same = await run([table('W', 'Date:date', 'Weight:number:kg', 'Note:text', 'Done:bool')]);
        expect(same.failed).toEqual([]);
        await run([put('W', 'r5', { Note: '12.5' })]);
        const answer = await run([table('W', 'Note:number', 'Weight:text', 'Extra:bool', 'Done:number')]);
        expect(answer.failed).toEqual([]);
        const dump = (await store.exportTable(REF))!;
        expect(dump.cols.map((c) => `${c.name}:${c.type}`)).toEqual([
          'Note:number',
          'Weight:text',
          'Extra:bool',
          'Done:number',
        ]);
        expect(dump.rows.map((r) => r.values)).toEqual([
          { Note: null, Weight: '80', Extra: null, Done: 1 },
          { Note: null, Weight: '81.5', Extra: null, Done: null },
          { Note: null, Weight: null, Extra: null, Done: 0 },
          { Note: null, Weight: '79', Extra: null, Done: null },
          { Note: 12.5, Weight: null, Extra: null, Done: null },
        ]);
        await run([table('W', 'Note:number', 'Date:date')]);
        expect((await store.exportTable(REF))!.rows.map((r) => r.values.Date)).toEqual([
          null,
          null,
          null,
          null,
          null,
        ]);
        await run([table('W', 'Note:text', 'Date:date')]);
        await run([table('W', 'Note:bool')]);
        expect((await store.exportTable(REF))!.rows.map((r) => r.values.Note)).toEqual([
          null,
          null,
          null,
          null,
          null,
        ]);
      });

      it('converts text to dates and bools where it fits', async () => {
        await run([
          table('T', 'A:text', 'B:text'),
          put('T', 'x', { A: '2026-05-01', B: 'on' }),
          put('T', 'y', { A: 'soon', B: 'maybe' }),
        ]);
        await run([table('T', 'A:date', 'B:bool')]);
        const t = { ...REF, name: 'T' };
        expect((await store.exportTable(t))!.rows.map((r) => r.values)).toEqual([
          { A: '2026-05-01', B: true },
          { A: null, B: null },
        ]);
      });

      it('store calls on a missing table or an existing key are refused', async () => {
        await weights();
        await expect(store.insertRow(REF, 'r1', {})).rejects.toThrow(
          expect.objectContaining({ code: 'INVALID_KEY' }),
        );
        const gone = { ...REF, name: 'Gone' };
        await expect(store.insertRow(gone, undefined, {})).rejects.toThrow(
          expect.objectContaining({ code: 'TABLE_NOT_FOUND' }),
        );
        const plan = { kind: 'rows', where: [], cols: [], sort: [], limit: 5, output: [] } as const;
        await expect(
          store.query(gone, { ...plan, where: [], cols: [], sort: [], output: [] }),
        ).rejects.toThrow(expect.objectContaining({ code: 'TABLE_NOT_FOUND' }));
        expect(await store.updateRow(gone, 'r1', {})).toBe(false);
        expect(await store.deleteRow(gone, 'r1')).toBe(false);
        expect(await store.dropTable(gone)).toBe(false);
        expect(await store.getRow(REF, 'nope')).toBeUndefined();
        expect(await store.takePending('u1', 'p999')).toBeUndefined();
      });

      it('checks names, columns and types', async () => {
        const answer = await run([
          table('9lives', 'A:text'),
          table('T', 'key:text'),
          table('T', 'A:text', 'A:number'),
          table('T', 'A:money'),
          table('T', '1A:text'),
          table('T'),
        ]);
        expect(answer.failed.map((f) => f.code)).toEqual([
          'INVALID_TABLE_NAME',
          'RESERVED_COLUMN',
          'DUPLICATE_COLUMN',
          'INVALID_LINE',
          'INVALID_COLUMN_NAME',
          'INVALID_LINE',
        ]);
        expect(await store.listTables('u1')).toEqual([]);
      });
    });

    describe('deletes wait for the person', () => {
      it('put +delete comes back pending; Delete removes the row, Keep keeps it', async () => {
        await weights();
        const answer = await run([
          put('W', 'r1', {}, true),
          put('W', 'r2', {}, true),
          put('W', 'zz', {}, true),
        ]);
        expect(answer.pending.map((p) => p.prompt)).toEqual([
          'Delete row r1 from W?',
          'Delete row r2 from W?',
        ]);
        expect(answer.ok).toEqual([
          { op: 'put', table: 'W', key: 'zz', line: 'put W zz +delete', note: 'no such row' },
        ]);
        expect((await store.getTable(REF))!.rowCount).toBe(4);
        expect((await store.listPending('u1', 'coach')).map((p) => p.id)).toEqual(
          answer.pending.map((p) => p.id),
        );
        const tap = { owner: 'u1', agent: 'coach' };
        expect((await confirmPending(store, { ...tap, id: answer.pending[0]!.id })).deleted).toBe(true);
        expect((await keepPending(store, { ...tap, id: answer.pending[1]!.id })).key).toBe('r2');
        expect((await store.exportTable(REF))!.rows.map((r) => r.key)).toEqual(['r2', 'r3', 'r4']);
        await expect(confirmPending(store, { ...tap, id: answer.pending[1]!.id })).rejects.toThrow(
          expect.objectContaining({ code: 'PENDING_NOT_FOUND' }),
        );
        expect(await store.listPending('u1')).toEqual([]);
      });

      it('+delete needs a key and takes no values', async () => {
        await weights();
        const answer = await run([put('W', undefined, {}, true), put('W', 'r1', { Weight: 1 }, true)]);
        expect(answer.failed.map((f) => f.code)).toEqual(['DELETE_NEEDS_KEY', 'INVALID_LINE']);
      });

      it('table drop comes back pending and Delete drops the table', async () => {
        await weights();
        const answer = await run([drop('W'), drop('Nope')]);
        expect(answer.failed.map((f) => f.code)).toEqual(['TABLE_NOT_FOUND']);
        expect(answer.pending).toEqual([
          expect.objectContaining({ kind: 'table', table: 'W', prompt: 'Delete table W and all its rows?' }),
        ]);
        expect(await store.getTable(REF)).toBeDefined();
        await confirmPending(store, { owner: 'u1', agent: 'coach', id: answer.pending[0]!.id });
        expect(await store.getTable(REF)).toBeUndefined();
        expect(await store.exportTable(REF)).toBeUndefined();
      });
    });

    describe('hand-over (moveTable)', () => {
      it('moves a table to another holder and name with its rows, keys and order; forgets pending deletes', async () => {
        await weights();
        const pending = (await run([put('W', 'r2', {}, true)])).pending;
        expect(pending).toHaveLength(1);
        const before = (await store.exportTable(REF))!;
        expect(await store.moveTable(REF, { holder: 'nurse', name: 'W-coach' })).toBe(true);
        expect(await store.getTable(REF)).toBeUndefined();
        const moved = { owner: 'u1', holder: 'nurse', name: 'W-coach' };
        expect(await store.exportTable(moved)).toEqual(before);
        expect((await store.listTables('u1', 'nurse')).map((t) => [t.name, t.rowCount])).toEqual([
          ['W-coach', 4],
        ]);
        expect(await store.listPending('u1')).toEqual([]);
        // The old holder no longer reaches it; the new one writes and reads it.
        expect((await run([query('W')])).results[0]!.code).toBe('TABLE_NOT_FOUND');
        const answer = await run([put('W-coach', undefined, { Weight: 70 }), query('W-coach')], {
          agent: 'nurse',
        });
        expect(answer.failed).toEqual([]);
        expect(answer.results[0]!.count).toBe(5);
      });

      it('answers false for a missing table and refuses a name the new holder already has', async () => {
        await weights();
        expect(await store.moveTable({ ...REF, name: 'Nope' }, { holder: 'nurse', name: 'X' })).toBe(false);
        await run([table('W', 'A:text')], { agent: 'nurse' });
        await expect(store.moveTable(REF, { holder: 'nurse', name: 'W' })).rejects.toThrow(
          expect.objectContaining({ code: 'INVALID_OPTIONS' }),
        );
        expect((await store.getTable(REF))!.rowCount).toBe(4);
      });
    });

    describe('queries', () => {
      beforeEach(async () => {
        await weights();
      });

      it('shows all columns in first-written order by default, with keys and count', async () => {
        const r = await rows(query('W'));
        expect(r.cols).toEqual(['Date', 'Weight', 'Note', 'Done']);
        expect(r.keys).toEqual(['r1', 'r2', 'r3', 'r4']);
        expect(r.count).toBe(4);
        expect(r.rows[1]).toEqual(['2025-12-29T08:15', 81.5, 'banana', null]);
      });

      it('where compares text without case, dates by day, and matches empty and filled', async () => {
        const notes = async (where: Where) =>
          (await rows(query('W', { where, cols: ['Note'] }))).rows.map((r) => r[0]);
        expect(await notes([['Note', '=', 'APPLE']])).toEqual(['Apple', 'apple']);
        expect(await notes([['Note', '!=', 'apple']])).toEqual(['banana', 'cherry pie']);
        expect(await notes([['Note', '~', 'PIE']])).toEqual(['cherry pie']);
        expect(await notes([['Note', '>', 'B']])).toEqual(['banana', 'cherry pie']);
        expect(await notes([['Date', '=', '2025-12-29']])).toEqual(['banana']);
        expect(await notes([['Date', '>=', '2026-01-02']])).toEqual(['Apple', 'cherry pie']);
        expect(await notes([['Date', '<', '2026-01-02T00:00']])).toEqual(['banana']);
        expect(await notes([['Date', '=', 'today+1']])).toEqual(['Apple']);
        expect(await notes([['Weight', '=', null]])).toEqual(['cherry pie']);
        expect(await notes([['Weight', '!=', null]])).toEqual(['Apple', 'banana', 'apple']);
        expect(await notes([['Weight', '>', 79]])).toEqual(['Apple', 'banana']);
        expect(
          await notes([
            ['Weight', '<=', 80],
            ['Note', '=', 'apple'],
          ]),
        ).toEqual(['Apple', 'apple']);
        expect(await notes([['Done', '=', true]])).toEqual(['Apple']);
        expect(await notes([['Done', '!=', true]])).toEqual(['cherry pie']);
        expect(await notes([['key', '=', 'R3']])).toEqual(['cherry pie']);
        expect(await notes([['Weight', '!=', 80]])).toEqual(['banana', 'apple']);
      });

      it('refuses where clauses that cannot run, with the reason in place of the view', async () => {
        const bad = async (where: Where) => (await run([query('W', { where })])).results[0]!;
        expect(await bad([['Weight', '=', 'heavy']])).toMatchObject({ code: 'INVALID_QUERY' });
        expect((await bad([['Weight', '~', 8]])).error).toBe(
          '~ (contains) works on text; Weight is a number column',
        );
        expect((await bad([['Done', '>', true]])).code).toBe('INVALID_QUERY');
        expect((await bad([['Weight', '>', null]])).code).toBe('INVALID_QUERY');
        expect(await bad([['Size', '=', 1]])).toMatchObject({
          code: 'COLUMN_NOT_FOUND',
          error: "W has no column 'Size'; its columns: Date, Weight, Note, Done",
          rows: [],
        });
        expect((await run([query('Nope')])).results[0]!.error).toBe('No table called Nope yet.');
      });

      it('sorts on several columns, empty cells last in both directions', async () => {
        const keys = async (...terms: string[]) => (await rows(query('W', { sort: sort(...terms) }))).keys;
        expect(await keys('Weight')).toEqual(['r4', 'r1', 'r2', 'r3']);
        expect(await keys('-Weight')).toEqual(['r2', 'r1', 'r4', 'r3']);
        expect(await keys('Date')).toEqual(['r2', 'r1', 'r3', 'r4']);
        expect(await keys('-Date')).toEqual(['r3', 'r1', 'r2', 'r4']);
        expect(await keys('Note')).toEqual(['r1', 'r4', 'r2', 'r3']);
        expect(await keys('-Done', 'Note')).toEqual(['r1', 'r3', 'r4', 'r2']);
        expect(await keys('-key')).toEqual(['r4', 'r3', 'r2', 'r1']);
      });

      it('limits rows and keeps the matched count; cols picks columns', async () => {
        const r = await rows(query('W', { limit: 2, cols: ['Note', 'key'], sort: sort('-Weight') }));
        expect(r.rows).toEqual([
          ['banana', 'r2'],
          ['Apple', 'r1'],
        ]);
        expect(r.count).toBe(4);
        expect((await run([query('W', { limit: 501 })])).results[0]!.code).toBe('LIMIT_QUERY_ROWS');
        expect((await run([query('W', { limit: 0 })])).results[0]!.code).toBe('INVALID_QUERY');
        expect((await run([query('W', { cols: ['Size'] })])).results[0]!.code).toBe('COLUMN_NOT_FOUND');
      });

      it('totals: group column, then sum, avg, min, max, Count; repeated columns named like avg Weight', async () => {
        const r = await rows(
          query('W', {
            group: { col: 'Done' },
            sum: ['Weight'],
            avg: ['Weight'],
            max: ['Date'],
            count: true,
          }),
        );
        expect(r.cols).toEqual(['Done', 'sum Weight', 'avg Weight', 'Date', 'Count']);
        expect(r.rows).toEqual([
          [false, null, null, '2026-01-04', 1],
          [true, 80, 80, '2026-01-02', 1],
          [null, 160.5, 80.25, '2025-12-29T08:15', 2],
        ]);
        const whole = await rows(query('W', { sum: ['Weight'], min: ['Weight'], count: true }));
        expect(whole.cols).toEqual(['sum Weight', 'min Weight', 'Count']);
        expect(whole.rows).toEqual([[240.5, 79, 4]]);
        const single = await rows(
          query('W', { avg: ['Weight'], where: [['Note', '=', 'nobody']], count: true }),
        );
        expect(single.rows).toEqual([[null, 0]]);
        expect(single.cols).toEqual(['Weight', 'Count']);
        const kept = await rows(
          query('W', { group: { col: 'Done' }, sum: ['Weight'], count: true, cols: ['Count', 'Done'] }),
        );
        expect(kept.cols).toEqual(['Count', 'Done']);
        expect(kept.rows).toEqual([
          [1, false],
          [1, true],
          [2, null],
        ]);
      });

      it('groups by day, week (Monday) and month across a year boundary, sorted on output columns', async () => {
        const byWeek = await rows(
          query('W', { group: { col: 'Date', by: 'week' }, sum: ['Weight'], count: true }),
        );
        expect(byWeek.rows).toEqual([
          ['2025-12-29', 161.5, 3],
          [null, 79, 1],
        ]);
        const byDay = await rows(
          query('W', { group: { col: 'Date', by: 'day' }, count: true, sort: sort('-Date') }),
        );
        expect(byDay.rows).toEqual([
          ['2026-01-04', 1],
          ['2026-01-02', 1],
          ['2025-12-29', 1],
          [null, 1],
        ]);
        const byMonth = await rows(
          query('W', { group: { col: 'Date', by: 'month' }, count: true, sort: sort('-Count') }),
        );
        expect(byMonth.rows).toEqual([
          ['2026-01', 2],
          ['2025-12', 1],
          [null, 1],
        ]);
        expect(
          (await run([query('W', { group: { col: 'Date' }, sort: sort('Weight') })])).results[0]!.code,
        ).toBe('INVALID_QUERY');
        expect((await run([query('W', { group: { col: 'Note', by: 'week' } })])).results[0]!.code).toBe(
          'INVALID_QUERY',
        );
        expect((await run([query('W', { sum: ['Note'] })])).results[0]!.code).toBe('INVALID_QUERY');
      });
    });

    describe('views', () => {
      beforeEach(async () => {
        await weights();
      });

      it('list joins cells with · and check=Col makes the checkbox', async () => {
        const view = (
          await rows(query('W', { as: 'list', cols: ['Note', 'Weight', 'Done'], check: 'Done', limit: 2 }))
        ).view;
        expect(view).toEqual({
          kind: 'list',
          check: 'Done',
          items: [
            { key: 'r1', text: 'Apple · 80 kg', checked: true },
            { key: 'r2', text: 'banana · 81.5 kg', checked: false },
          ],
        });
        expect((await run([query('W', { as: 'list', check: 'Note' })])).results[0]!.code).toBe(
          'INVALID_QUERY',
        );
      });

      it('chart defaults x to the first column and y to the number columns', async () => {
        const view = (
          await rows(
            query('W', {
              as: 'chart',
              group: { col: 'Date', by: 'day' },
              avg: ['Weight'],
              chart: { type: 'bar', max: 90 },
            }),
          )
        ).view;
        expect(view).toMatchObject({
          kind: 'chart',
          type: 'bar',
          x: 'Date',
          y: ['Weight'],
          unit: 'kg',
          max: 90,
          stack: false,
        });
        const stacked = (
          await rows(
            query('W', {
              as: 'chart',
              cols: ['Note', 'Weight'],
              y: ['Weight'],
              chart: { min: 50, stack: true, unit: 'lb' },
            }),
          )
        ).view;
        expect(stacked).toMatchObject({
          kind: 'chart',
          type: 'line',
          x: 'Note',
          y: ['Weight'],
          unit: 'lb',
          min: 50,
          stack: true,
        });
        expect((await run([query('W', { as: 'chart', cols: ['Note'] })])).results[0]!.code).toBe(
          'INVALID_QUERY',
        );
      });

      it('stat shows the last value, the change and a spark line', async () => {
        const view = (
          await rows(
            query('W', { as: 'stat', where: [['Weight', '!=', null]], label: 'Weight', good: 'down' }),
          )
        ).view;
        expect(view).toEqual({
          kind: 'stat',
          label: 'Weight',
          y: 'Weight',
          value: 79,
          unit: 'kg',
          change: -2.5,
          spark: [80, 81.5, 79],
          good: 'down',
        });
        const one = (await rows(query('W', { as: 'stat', y: ['Weight'], limit: 1, title: 'Now' }))).view;
        expect(one).toEqual({
          kind: 'stat',
          title: 'Now',
          label: 'Weight',
          y: 'Weight',
          value: 80,
          unit: 'kg',
        });
      });

      it('send carries the card text, rows in cols order (dates as written) and the matched count', async () => {
        const view = (
          await rows(query('W', { as: 'send', cols: ['Date', 'Note'], where: [['Date', '!=', null]] }))
        ).view;
        expect(view).toEqual({
          kind: 'send',
          text: 'Send 3 rows from W?',
          table: 'W',
          cols: ['Date', 'Note'],
          rows: [
            ['2026-01-02', 'Apple'],
            ['2025-12-29T08:15', 'banana'],
            ['2026-01-04', 'cherry pie'],
          ],
          count: 3,
        });
        expect(sendEvent('q9', view as SendView)).toEqual({
          id: 'q9',
          preset: 'query',
          op: 'query',
          table: 'W',
          cols: ['Date', 'Note'],
          rows: (view as SendView).rows,
          count: 3,
        });
        expect((await run([query('W', { as: 'send', limit: 201 })])).results[0]!.code).toBe(
          'LIMIT_QUERY_ROWS',
        );
      });
    });

    describe('limits', () => {
      it('refuses a call of more than 50 lines and writes nothing', async () => {
        const ops = [
          table('W', 'A:number'),
          ...Array.from({ length: 50 }, (_, i) => put('W', undefined, { A: i })),
        ];
        const answer = await run(ops);
        expect(answer.failed).toEqual([expect.objectContaining({ code: 'LIMIT_LINES' })]);
        expect(await store.listTables('u1')).toEqual([]);
      });

      it('caps rows per table, text, key, table name, columns and tables per agent', async () => {
        const small = { limits: { rowsPerTable: 3 } };
        const answer = await run(
          [
            table('W', 'A:text'),
            ...Array.from({ length: 4 }, () => put('W', undefined, { A: 'x' })),
            put('W', 'r1', { A: 'updates still land' }),
            put('W', undefined, { A: 'a'.repeat(1001) }),
            put('W', 'k'.repeat(65), { A: 'x' }),
            table('T'.repeat(33), 'A:text'),
            table('Wide', ...Array.from({ length: 13 }, (_, i) => `C${i}:text`)),
          ],
          small,
        );
        expect(answer.failed.map((f) => f.code)).toEqual([
          'LIMIT_ROWS',
          'LIMIT_TEXT',
          'INVALID_KEY',
          'INVALID_TABLE_NAME',
          'TOO_MANY_COLUMNS',
        ]);
        expect((await store.getTable(REF))!.rowCount).toBe(3);
        await run([
          put('W', undefined, { A: 'a'.repeat(1000) }),
          table('Wide', ...Array.from({ length: 12 }, (_, i) => `C${i}:text`)),
        ]);
        expect((await store.getTable(REF))!.rowCount).toBe(4);
        expect((await store.getTable({ ...REF, name: 'Wide' }))!.cols).toHaveLength(12);
        const many = await run(Array.from({ length: 20 }, (_, i) => table(`T${i}`, 'A:text')));
        expect(many.failed.map((f) => f.code)).toEqual(['LIMIT_TABLES', 'LIMIT_TABLES']);
        expect(await store.listTables('u1', 'coach')).toHaveLength(20);
        expect((await run([table('Mine', 'A:text')], { agent: 'other' })).failed).toEqual([]);
        const owner = await run([table('More', 'A:text')], {
          agent: 'third',
          limits: { tablesPerOwner: 21 },
        });
        expect(owner.failed.map((f) => f.code)).toEqual(['LIMIT_TABLES']);
      });

      it('holds 5,000 rows and refuses the next one; keys of 64 and names of 32 characters fit', async () => {
        await run([table('W', 'A:number')]);
        for (let i = 0; i < 100; i++)
          await run(Array.from({ length: 50 }, (_, j) => put('W', undefined, { A: i * 50 + j })));
        expect((await store.getTable(REF))!.rowCount).toBe(5000);
        const answer = await run([
          put('W', undefined, { A: 1 }),
          put('W', 'k'.repeat(64), { A: 1 }),
          put('W', 'r5000', { A: -1 }),
          table('T'.repeat(32), 'A:text'),
        ]);
        expect(answer.failed.map((f) => f.code)).toEqual(['LIMIT_ROWS', 'LIMIT_ROWS']);
        expect(answer.ok.map((o) => o.key ?? o.table)).toEqual(['r5000', 'T'.repeat(32)]);
        expect((await store.getRow(REF, 'r5000'))!.values.A).toBe(-1);
      });

      it('hands back at most 500 rows per call', async () => {
        await run([table('W', 'A:number')]);
        for (let i = 0; i < 6; i++)
          await run(Array.from({ length: 50 }, (_, j) => put('W', undefined, { A: i * 50 + j })));
        const answer = await run([
          query('W', { limit: 300 }),
          query('W', { limit: 200 }),
          query('W', { limit: 1 }),
        ]);
        expect(answer.results.map((r) => r.rows.length)).toEqual([300, 200, 0]);
        expect(answer.results[2]!.code).toBe('LIMIT_ROWS_BACK');
        expect((await run([query('W')])).results[0]!.rows).toHaveLength(50);
        expect((await run([query('W', { as: 'send' })])).results[0]!.view).toMatchObject({
          text: 'Send 200 rows from W?',
          count: 300,
        });
      });
    });
  });
}
