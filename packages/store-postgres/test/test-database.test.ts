import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testPostgresUrl, testStoreEngine } from '../src/testing.js';

describe('the test set-up', () => {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of made) await db.drop();
  });

  it('provides a running PostgreSQL and makes separate databases on it', async () => {
    // The admin URL as an argument, and by default the one the vitest config provides.
    const a = await createTestDatabase(inject('postgresUrl'));
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

  it('takes its settings as arguments and says how to get a server when there is none', () => {
    expect(testStoreEngine()).toBe('sqlite');
    expect(testStoreEngine('postgres')).toBe('postgres');
    expect(() => testStoreEngine('mysql')).toThrow(/provide testStore sqlite \(the default\) or postgres/);
    expect(testPostgresUrl('postgres://u@127.0.0.1/x')).toBe('postgres://u@127.0.0.1/x');
    expect(() => testPostgresUrl('')).toThrow(/globalSetup \.\.\/\.\.\/config\/postgres-setup\.ts/);
  });
});
