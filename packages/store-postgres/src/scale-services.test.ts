import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDatabaseUrl, openScaleServices } from './scale-services.js';
import { createTestDatabase, type TestDatabase } from './testing.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('openScaleServices', () => {
  it('opens the pool, the notifier and the limits on one URL and reports health', async () => {
    const shared = await openScaleServices(db.url);
    try {
      const health = await shared.health();
      expect(health).toMatchObject({ ok: true, engine: 'postgresql', listening: true });
      expect(await shared.limits.rateLimiter('mcp', { burst: 1, perMinute: 1 }).take('k')).toEqual({
        ok: true,
      });
    } finally {
      await shared.close();
    }
  });

  it('refuses a URL that is not PostgreSQL, naming the variable', () => {
    expect(() => checkDatabaseUrl('mysql://x/y')).toThrow(/SVC_DATABASE_URL must be a PostgreSQL URL/);
    expect(checkDatabaseUrl('postgresql://a@h:5432/db')).toBe('postgresql://a@h:5432/db');
  });

  it('fails with POSTGRES_UNAVAILABLE when the server is not there', async () => {
    await expect(openScaleServices('postgres://svc:x@127.0.0.1:1/none')).rejects.toMatchObject({
      code: 'POSTGRES_UNAVAILABLE',
    });
  });
});
