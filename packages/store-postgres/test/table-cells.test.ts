// Cells jsonb cannot hold as they are (-0, U+0000 in text) come back from PostgreSQL exactly as the memory store keeps them.
import { createMemoryStore, runOps } from '@screen-service/tables-engine';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { put, table } from '../../tables-engine/test/ops.js';
import { createPostgresTableStore, runPostgresMigrations } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

let db: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await runPostgresMigrations(pool);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('postgres table cells', () => {
  it('keeps -0 and text with U+0000 through writes, a column change and queries', async () => {
    const call = { owner: 'u', agent: 'a', now: 0, timeZone: 'UTC' };
    const ref = { owner: 'u', holder: 'a', name: 'C' };
    const stores = [createMemoryStore(), createPostgresTableStore({ pool })];
    for (const store of stores) {
      await runOps(store, {
        ...call,
        ops: [
          table('C', 'N:number', 'T:text'),
          put('C', 'k', { N: -0, T: 'a\u0000b' }),
          put('C', 'j', { N: 1, T: '\u0000' }),
          table('C', 'N:number', 'T:text', 'X:bool'),
        ],
      });
    }
    const [memory, postgres] = await Promise.all(stores.map((s) => s.exportTable(ref)));
    expect(postgres).toEqual(memory);
    expect(Object.is(postgres!.rows[0]!.values.N, -0)).toBe(true);
    expect(postgres!.rows.map((r) => r.values.T)).toEqual(['a\u0000b', '\u0000']);
    const stored = await pool.query("SELECT vals->>'T' AS t FROM te_rows ORDER BY seq");
    expect(stored.rows).toHaveLength(2);
  });
});
