// loadTable replaces a table whole with a copy's rows; the store then reads and queries it like any table.
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { describe, expect, it } from 'vitest';
import { createWasmSqlDriver, createWasmSqliteStore, loadTable } from '../src/browser-sqlite.js';
import { runLines } from '../src/index.js';

const sqlite3 = await sqlite3InitModule();

describe('loadTable', () => {
  it('replaces the table: old rows gone, new rows in order with their cells typed, queries run on them', async () => {
    const db = new sqlite3.oo1.DB(':memory:', 'c');
    const driver = createWasmSqlDriver(db);
    const store = createWasmSqliteStore(db, { driver });
    const call = { owner: 'me', agent: 'a1', now: Date.parse('2026-11-23T10:00:00Z'), timeZone: 'UTC' };
    await runLines(store, { ...call, lines: 'table create meals old:text\nput meals x old=gone' });
    const ref = { owner: 'me', holder: 'a1', name: 'meals' };
    const cols = [
      { name: 'dish', type: 'text' as const },
      { name: 'kcal', type: 'number' as const, unit: 'kcal' },
      { name: 'veg', type: 'bool' as const },
      { name: 'day', type: 'date' as const },
    ];
    await loadTable(store, driver, ref, cols, [
      ['mon', 'Soup', 300, true, '2026-11-23'],
      ['tue', 'Steak', 900, false, null],
    ]);
    expect(await store.exportTable(ref)).toEqual({
      cols,
      rows: [
        { key: 'mon', values: { dish: 'Soup', kcal: 300, veg: true, day: '2026-11-23' } },
        { key: 'tue', values: { dish: 'Steak', kcal: 900, veg: false, day: null } },
      ],
    });
    expect((await store.getTable(ref))?.rowCount).toBe(2);
    const answer = await runLines(store, {
      ...call,
      lines: 'query meals where=veg=on sum=kcal\nput meals wed dish=Tea',
    });
    expect(answer.results[0]?.rows).toEqual([[300]]);
    expect((await store.exportTable(ref))?.rows.map((r) => r.key)).toEqual(['mon', 'tue', 'wed']);
  });

  it('loads more rows than one statement takes, in order', async () => {
    const db = new sqlite3.oo1.DB(':memory:', 'c');
    const driver = createWasmSqlDriver(db);
    const store = createWasmSqliteStore(db, { driver });
    const ref = { owner: 'me', holder: 'a1', name: 'many' };
    const rows = Array.from({ length: 123 }, (_, i) => [`k${i}`, i]);
    await loadTable(store, driver, ref, [{ name: 'n', type: 'number' }], rows);
    const dump = await store.exportTable(ref);
    expect(dump?.rows).toHaveLength(123);
    expect(dump?.rows.at(-1)).toEqual({ key: 'k122', values: { n: 122 } });
    expect((await store.getTable(ref))?.rowCount).toBe(123);
  });
});
