// /readyz of an instance on PostgreSQL reports the shared database (a round trip with a short timeout) and
// answers 503 with a named reason when the database goes away under the instance (issue 20, "health check
// reports the database").
import { createTestDatabase, type TestDatabase } from '@screen-service/store-postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { deployment, type Instance, request, startInstance } from './instances.js';

let db: TestDatabase | undefined;
let a: Instance | undefined;
afterAll(async () => {
  await a?.close();
  await db?.drop();
});

describe('/readyz on PostgreSQL', () => {
  it('200 with the database while it answers; 503 POSTGRES_UNREACHABLE once it is gone', async () => {
    db = await createTestDatabase();
    a = await startInstance(deployment(db.url), 'ready');
    // LISTEN is set up on its own connection beside the first requests: wait until readiness reports it.
    const instance = a;
    await expect
      .poll(async () => (await request(instance.port, 'GET', '/readyz')).body?.database?.listening, {
        timeout: 10_000,
      })
      .toBe(true);
    const up = await request(a.port, 'GET', '/readyz');
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({
      ready: true,
      database: { ok: true, engine: 'postgresql', listening: true },
    });
    // On PostgreSQL the data folder holds no SQLite file, so readiness reports none (issue 42).
    expect(up.body).not.toHaveProperty('local');
    expect(up.body.database.schema_version).toBe(up.body.database.expected_version);
    // The database is dropped under the running instance: its connections are cut.
    await db.drop();
    db = undefined;
    const down = await request(a.port, 'GET', '/readyz');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      ready: false,
      database: { ok: false, engine: 'postgresql', reason: 'POSTGRES_UNREACHABLE' },
    });
    expect(down.body.database.error).toEqual(expect.any(String));
  });
});
