// The health probe of an instance on PostgreSQL against a database that stops answering: a pool whose every
// connection is held (no answer: POSTGRES_TIMEOUT within the timeout) and a database taken away under the
// instance (its connections cut: POSTGRES_UNREACHABLE). /readyz turns both into 503 with the reason.
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresServices, POSTGRES_MIGRATIONS, type PostgresServices } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

const latest = Math.max(...POSTGRES_MIGRATIONS.map((m) => m.version));
let db: TestDatabase | undefined;
let services: PostgresServices | undefined;

afterEach(async () => {
  await services?.close().catch(() => {});
  await db?.drop();
  services = undefined;
  db = undefined;
});

describe('health of an instance on PostgreSQL', () => {
  it('ready: the database answers and carries the schema this code expects', async () => {
    db = await createTestDatabase();
    services = await createPostgresServices(db.url);
    expect(await services.readiness()).toMatchObject({
      ready: true,
      database: { ok: true, engine: 'postgresql', schema_version: latest, expected_version: latest },
    });
  });

  it('a database that does not answer is POSTGRES_TIMEOUT after the timeout, not a hung probe', async () => {
    db = await createTestDatabase();
    services = await createPostgresServices(db.url, { poolSize: 1, healthTimeoutMs: 300 });
    const pool = (services.core.store as unknown as { pool: import('pg').Pool }).pool;
    // Every connection of the pool is busy: the probe's query cannot start.
    const held = await pool.connect();
    try {
      const started = performance.now();
      const r = await services.readiness();
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(r).toMatchObject({ ready: false, database: { ok: false, reason: 'POSTGRES_TIMEOUT' } });
      expect(String(r.database.ok === false && r.database.error)).toMatch(/did not answer within 300 ms/);
    } finally {
      held.release();
    }
    // Back once the pool frees up.
    await expect.poll(async () => (await services!.readiness()).ready).toBe(true);
  });

  it('a database taken away (connections cut) is POSTGRES_UNREACHABLE with the server error', async () => {
    db = await createTestDatabase();
    services = await createPostgresServices(db.url, { healthTimeoutMs: 5_000 });
    expect((await services.health()).ok).toBe(true);
    await db.drop();
    db = undefined;
    const r = await services.readiness();
    expect(r).toMatchObject({ ready: false, database: { ok: false, reason: 'POSTGRES_UNREACHABLE' } });
    expect(r.database.ok === false && r.database.error).toMatch(/terminat|does not exist|Connection/i);
  });
});
