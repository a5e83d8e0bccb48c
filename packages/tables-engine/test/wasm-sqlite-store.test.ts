// The SQLite WebAssembly store runs the shared conformance suite on in-memory databases in Node (Chromium runs it on OPFS in apps/web).
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { describe, expect, it } from 'vitest';
import { createWasmSqlDriver, createWasmSqliteStore } from '../src/browser-sqlite.js';
import { runOps } from '../src/index.js';
import { put, table } from './ops.js';
import { runStoreConformance } from './store-conformance.js';

const sqlite3 = await sqlite3InitModule();
const memory = () => new sqlite3.oo1.DB(':memory:', 'c');

runStoreConformance({ name: 'wasm-sqlite', create: () => createWasmSqliteStore(memory()) });

describe('wasm sqlite store', () => {
  it('refuses something that is not an oo1 database', async () => {
    expect(() => createWasmSqliteStore({} as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });

  it("nests the store's batches inside the caller's transaction and undoes both on a throw", async () => {
    const db = memory();
    const driver = createWasmSqlDriver(db);
    const store = createWasmSqliteStore(db, { driver });
    driver.exec('CREATE TABLE landed (screen TEXT PRIMARY KEY)');
    const call = { owner: 'u1', agent: 'a', now: 0, timeZone: 'UTC' };
    await driver.batch(async () => {
      driver.run('INSERT INTO landed VALUES (?)', ['s1']);
      await runOps(store, { ...call, ops: [table('W', 'A:number'), put('W', undefined, { A: 1 })] });
    });
    await expect(
      driver.batch(async () => {
        driver.run('INSERT INTO landed VALUES (?)', ['s2']);
        await runOps(store, { ...call, ops: [put('W', undefined, { A: 2 })] });
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(driver.all('SELECT screen FROM landed')).toEqual([{ screen: 's1' }]);
    expect((await store.exportTable({ owner: 'u1', holder: 'a', name: 'W' }))!.rows).toEqual([
      { key: 'r1', values: { A: 1 } },
    ]);
  });
});
