import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

describe('the test set-up', () => {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of made) await db.drop();
  });

  it('provides a running PostgreSQL and makes separate databases on it', async () => {
    const a = await createTestDatabase(process.env.SVC_TEST_POSTGRES_URL);
    const b = await createTestDatabase();
    made.push(a, b);
    expect(a.name).not.toBe(b.name);
    const client = new pg.Client({ connectionString: a.url });
    await client.connect();
    const { rows } = await client.query<{ db: string; v: string }>(
      'select current_database() as db, version() as v',
    );
    await client.end();
    expect(rows[0]?.db).toBe(a.name);
    expect(rows[0]?.v).toMatch(/^PostgreSQL \d+/);
  });
});
