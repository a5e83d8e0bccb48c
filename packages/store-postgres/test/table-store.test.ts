// The tables engine's conformance suite and property test (the ones memory and SQLite run) on PostgreSQL,
// plus what only a shared database shows: two instances writing one person's tables at once.
import { runLines } from '@screen-service/tables-engine';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runStoreConformance } from '../../tables-engine/test/store-conformance.js';
import { runStoresAgree } from '../../tables-engine/test/stores-agree.js';
import { createPostgresTableStore, type PostgresTableStore, runPostgresMigrations } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';
import { emptyAllTables } from './empty-tables.js';

// 5,000 rows written line by line over a network connection on a loaded machine take longer than 20 s.
vi.setConfig({ testTimeout: 120_000 });

let db: TestDatabase;
let pool: pg.Pool;
let second: pg.Pool;
let store: PostgresTableStore;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  second = new pg.Pool({ connectionString: db.url, max: 4 });
  await runPostgresMigrations(pool);
  store = createPostgresTableStore({ pool });
});
afterAll(async () => {
  await pool?.end();
  await second?.end();
  await db?.drop();
});

runStoreConformance({
  name: 'postgres',
  create: async () => {
    await emptyAllTables(pool);
    return createPostgresTableStore({ pool });
  },
});

// Each run of the property uses an owner of its own, so the one store serves every run.
runStoresAgree({ name: 'PostgreSQL', create: () => store, runs: { alter: 30, queries: 60 } });

describe('postgres table store across instances', () => {
  const call = { owner: 'p1', agent: 'coach', now: Date.parse('2026-11-27T10:00:00Z'), timeZone: 'UTC' };

  it('two instances appending to one table at once: every row lands once, keys distinct, count exact', async () => {
    await emptyAllTables(pool);
    const other = createPostgresTableStore({ pool: second });
    await runLines(store, { ...call, lines: 'table create Log N:number' });
    const puts = (from: number) => Array.from({ length: 20 }, (_, i) => `put Log N=${from + i}`).join('\n');
    const answers = await Promise.all([
      runLines(store, { ...call, lines: puts(0) }),
      runLines(other, { ...call, lines: puts(100) }),
      runLines(store, { ...call, lines: puts(200) }),
      runLines(other, { ...call, lines: puts(300) }),
    ]);
    expect(answers.flatMap((a) => a.failed)).toEqual([]);
    const dump = (await store.exportTable({ owner: 'p1', holder: 'coach', name: 'Log' }))!;
    expect(dump.rows).toHaveLength(80);
    expect(new Set(dump.rows.map((r) => r.key)).size).toBe(80);
    expect((await other.getTable({ owner: 'p1', holder: 'coach', name: 'Log' }))!.rowCount).toBe(80);
    // One call's rows stay together: each call held the person's lock for its whole batch.
    const calls = dump.rows.map((r) => Math.floor((r.values.N as number) / 100));
    expect(calls.filter((c, i) => i === 0 || c !== calls[i - 1])).toHaveLength(4);
  });

  it('the per-person table limit holds when two instances create tables at once', async () => {
    await emptyAllTables(pool);
    const other = createPostgresTableStore({ pool: second });
    const limits = { tablesPerAgent: 3 };
    const answers = await Promise.all(
      ['A', 'B', 'C', 'D', 'E', 'F'].map((name, i) =>
        runLines(i % 2 ? other : store, { ...call, limits, lines: `table create ${name} X:text` }),
      ),
    );
    expect(answers.filter((a) => a.ok.length === 1)).toHaveLength(3);
    expect(answers.flatMap((a) => a.failed.map((f) => f.code))).toEqual([
      'LIMIT_TABLES',
      'LIMIT_TABLES',
      'LIMIT_TABLES',
    ]);
    expect(await store.listTables('p1')).toHaveLength(3);
  });

  it('a rejected batch leaves nothing behind; a batch inside it is a savepoint', async () => {
    await emptyAllTables(pool);
    const ref = { owner: 'p1', holder: 'coach', name: 'T' };
    await store.defineTable(ref, [{ name: 'A', type: 'number' }]);
    await expect(
      store.batch(async () => {
        await store.insertRow(ref, 'a', { A: 1 });
        await expect(
          store.batch(async () => {
            await store.insertRow(ref, 'inner', { A: 2 });
            throw new Error('inner fails');
          }),
        ).rejects.toThrow('inner fails');
        expect((await store.exportTable(ref))!.rows.map((r) => r.key)).toEqual(['a']);
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await store.exportTable(ref)).toEqual({ cols: [{ name: 'A', type: 'number' }], rows: [] });
    expect((await store.getTable(ref))!.rowCount).toBe(0);
  });

  it('one person never sees another person’s tables, rows or pending deletes', async () => {
    await emptyAllTables(pool);
    await runLines(store, {
      ...call,
      lines: 'table create Secret S:text\nput Secret k S=hidden\nput Secret k +delete',
    });
    const them = { ...call, owner: 'p2' };
    const answer = await runLines(store, {
      ...them,
      lines: 'query Secret\nput Secret k S=x\ntable drop Secret',
    });
    expect(answer.results[0]!.code).toBe('TABLE_NOT_FOUND');
    expect(answer.failed.map((f) => f.code)).toEqual(['TABLE_NOT_FOUND', 'TABLE_NOT_FOUND']);
    expect(await store.listTables('p2')).toEqual([]);
    expect(await store.listPending('p2')).toEqual([]);
    const mine = await store.listPending('p1');
    expect(await store.takePending('p2', mine[0]!.id)).toBeUndefined();
    expect(await store.getRow({ owner: 'p2', holder: 'coach', name: 'Secret' }, 'k')).toBeUndefined();
    expect((await store.getRow({ owner: 'p1', holder: 'coach', name: 'Secret' }, 'k'))!.values.S).toBe(
      'hidden',
    );
  });
});

describe('the statement timeout (ADR 0254)', () => {
  it('stops a statement of a batch past it with LIMIT_TIME and writes nothing of the batch', async () => {
    await emptyAllTables(pool);
    const timed = createPostgresTableStore({ pool, statementTimeoutMs: 100 });
    const ref = { owner: 'slow', holder: 'coach', name: 'T' };
    await timed.defineTable(ref, [{ name: 'N', type: 'number' }]);
    const slow = timed.batch(async () => {
      await timed.insertRow(ref, 'a', { N: 1 });
      await timed.withQuery((q) => q.query('SELECT pg_sleep(1)'));
    });
    await expect(slow).rejects.toMatchObject({ code: 'LIMIT_TIME' });
    await expect(slow).rejects.toThrow(/ran past 100 ms \(the statement timeout\)/);
    expect(await timed.getRow(ref, 'a')).toBeUndefined();
    // The timeout is the transaction's own: the pool's next statements run without it.
    await pool.query('SELECT pg_sleep(0.2)');
    // Without the option nothing stops the statement.
    await store.batch(() => store.withQuery((q) => q.query('SELECT pg_sleep(0.2)')));
  });
});
