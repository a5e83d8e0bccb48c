// The SQLite store runs the shared conformance suite on real database files in a temporary directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runOps } from '../src/index.js';
import { createSqliteStore } from '../src/sqlite.js';
import { put, table } from './ops.js';
import { runStoreConformance } from './store-conformance.js';

const dir = mkdtempSync(join(tmpdir(), 'tables-engine-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStoreConformance({ name: 'sqlite', create: () => createSqliteStore(join(dir, `t${++files}.sqlite`)) });

describe('sqlite store file', () => {
  it('keeps tables and pending deletes across reopening the file', async () => {
    const file = join(dir, 'reopen.sqlite');
    const call = { owner: 'u1', agent: 'a', now: 0, timeZone: 'UTC' };
    const first = createSqliteStore(file);
    const answer = await runOps(first, {
      ...call,
      ops: [
        table('W', 'A:number', 'B:bool'),
        put('W', undefined, { A: 1, B: true }),
        put('W', 'r1', {}, true),
      ],
    });
    const db = new Database(file);
    const again = createSqliteStore(db);
    expect((await again.exportTable({ owner: 'u1', holder: 'a', name: 'W' }))!.rows).toEqual([
      { key: 'r1', values: { A: 1, B: true } },
    ]);
    expect((await again.listPending('u1')).map((p) => p.id)).toEqual([answer.pending[0]!.id]);
    db.close();
  });

  it('refuses a database written by a newer layout', async () => {
    const file = join(dir, 'newer.sqlite');
    createSqliteStore(file);
    const db = new Database(file);
    db.exec("INSERT INTO te_migrations (version, name, applied_at) VALUES (99, 'from-the-future', '')");
    expect(() => createSqliteStore(db)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    db.close();
  });
});

describe('sqlite store batches', () => {
  const ref = { owner: 'u1', holder: 'a', name: 'W' };
  const cols = [{ name: 'A', type: 'number' as const }];
  const keys = async (store: ReturnType<typeof createSqliteStore>) =>
    ((await store.exportTable(ref))?.rows ?? []).map((r) => r.key);

  it('a batch inside a batch is a savepoint: its rejection undoes only its own writes', async () => {
    const store = createSqliteStore(join(dir, `b${++files}.sqlite`));
    await store.batch(async () => {
      await store.defineTable(ref, cols);
      await store.insertRow(ref, 'outer', { A: 1 });
      await expect(
        store.batch(async () => {
          await store.insertRow(ref, 'inner', { A: 2 });
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await store.batch(async () => store.insertRow(ref, 'kept', { A: 3 }));
    });
    expect(await keys(store)).toEqual(['outer', 'kept']);
  });

  it('a rejected batch undoes every write in it, across awaits on other work', async () => {
    const store = createSqliteStore(join(dir, `b${++files}.sqlite`));
    await store.defineTable(ref, cols);
    await expect(
      store.batch(async () => {
        await store.insertRow(ref, 'a', { A: 1 });
        await new Promise((resolve) => setTimeout(resolve, 5));
        await store.insertRow(ref, 'b', { A: 2 });
        throw new Error('late failure');
      }),
    ).rejects.toThrow('late failure');
    expect(await keys(store)).toEqual([]);
    expect((await store.getTable(ref))!.rowCount).toBe(0);
  });

  it('refuses to start inside a synchronous transaction on the same connection', async () => {
    const db = new Database(join(dir, `b${++files}.sqlite`));
    const store = createSqliteStore(db);
    let started: Promise<unknown> | undefined;
    db.transaction(() => {
      started = store.batch(async () => undefined);
    })();
    await expect(started).rejects.toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    db.close();
  });
});
