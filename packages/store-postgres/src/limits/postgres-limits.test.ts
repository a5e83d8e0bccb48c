import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureScaleSchema } from '../scale-schema.js';
import { createTestDatabase, ignoreClosing, type TestDatabase } from '../testing.js';
import { createPostgresLimits } from './postgres-limits.js';

let db: TestDatabase;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url });
  pool.on('error', ignoreClosing);
  pools.push(pool);
  await ensureScaleSchema(pool);
});
afterAll(async () => {
  for (const p of pools) await p.end();
  await db.drop();
});

/** An "instance": its own pool on the shared database. */
function instance() {
  const pool = new pg.Pool({ connectionString: db.url, max: 10 });
  pool.on('error', ignoreClosing);
  pools.push(pool);
  return createPostgresLimits({ pool });
}

describe('createPostgresLimits rate buckets', () => {
  it('refuses the 61st call of a concurrent burst spread over three instances, exactly', async () => {
    let t = 1_000_000;
    const now = () => t;
    const buckets = [instance(), instance(), instance()].map((l) =>
      l.rateLimiter('mcp', { burst: 60, perMinute: 30, now }),
    );
    const decisions = await Promise.all(Array.from({ length: 90 }, (_, i) => buckets[i % 3]!.take('conn_1')));
    expect(decisions.filter((d) => d.ok)).toHaveLength(60);
    const refused = decisions.find((d) => !d.ok);
    // 30 a minute: one token every 2 s.
    expect(refused).toEqual({ ok: false, retryAfterS: 2 });
    t += 2000;
    expect(await buckets[1]!.take('conn_1')).toEqual({ ok: true });
    expect((await buckets[2]!.take('conn_1')).ok).toBe(false);
  });

  it('sends the takes of one key that wait for its statement together, and stays exact at the edge (ADR 0291)', async () => {
    const now = () => 7_000_000;
    const pool = new pg.Pool({ connectionString: db.url, max: 10 });
    pool.on('error', ignoreClosing);
    pools.push(pool);
    let statements = 0;
    const query = pool.query.bind(pool) as (...a: unknown[]) => unknown;
    (pool as unknown as { query: unknown }).query = (...a: unknown[]) => {
      if (JSON.stringify(a[0]).includes('INSERT INTO svc_limits')) statements++;
      return query(...a);
    };
    const bucket = createPostgresLimits({ pool }).rateLimiter('mcp', { burst: 121, perMinute: 1, now });
    // Forty in one turn go in one statement (ADR 0296).
    const first = await Promise.all(Array.from({ length: 40 }, () => bucket.take('hot')));
    expect(first.every((d) => d.ok)).toBe(true);
    expect(statements).toBe(1);
    // One on its way, then twenty more: those twenty wait for it and go in one statement.
    statements = 0;
    const lone = bucket.take('hot');
    while (statements === 0) await new Promise((r) => setImmediate(r));
    const waited = await Promise.all([lone, ...Array.from({ length: 20 }, () => bucket.take('hot'))]);
    expect(waited.every((d) => d.ok)).toBe(true);
    expect(statements).toBe(2);
    // Sixty-five at once against the 60 left: the batch cannot have them all, so each is asked alone until
    // the bucket refuses; exactly 60 pass, the rest are refused with when to retry.
    statements = 0;
    const edge = await Promise.all(Array.from({ length: 65 }, () => bucket.take('hot')));
    expect(edge.filter((d) => d.ok)).toHaveLength(60);
    expect(edge.filter((d) => !d.ok)).toHaveLength(5);
    expect(edge.find((d) => !d.ok)).toEqual({ ok: false, retryAfterS: 60 });
    expect(statements).toBeLessThan(65);
    expect((await bucket.take('hot')).ok).toBe(false);
  });

  it('keeps keys and limit names apart, and charges a batch its cost', async () => {
    const now = () => 5_000_000;
    const l = instance();
    const a = l.rateLimiter('mcp', { burst: 5, perMinute: 60, now });
    const b = l.rateLimiter('tables', { burst: 5, perMinute: 60, now });
    expect(await a.take('k', 5)).toEqual({ ok: true });
    expect((await a.take('k')).ok).toBe(false);
    expect(await a.take('other')).toEqual({ ok: true });
    expect(await b.take('k')).toEqual({ ok: true });
    // A cost above the burst never passes, even from a full bucket.
    expect(await b.take('fresh', 6)).toMatchObject({ ok: false });
  });

  it('drops full buckets on its sweep', async () => {
    let t = 9_000_000;
    const pool = new pg.Pool({ connectionString: db.url });
    pool.on('error', ignoreClosing);
    pools.push(pool);
    const l = createPostgresLimits({ pool, sweepMs: 1 });
    const bucket = l.rateLimiter('sweep', { burst: 2, perMinute: 60, now: () => t });
    await bucket.take('gone');
    t += 10_000; // refilled
    await bucket.take('kept');
    // The sweep runs beside the take (not awaited by it): wait for its delete to be seen.
    await expect
      .poll(
        async () =>
          (await pool.query<{ key: string }>("SELECT key FROM svc_limits WHERE name = 'sweep'")).rows.map(
            (r) => r.key,
          ),
        { timeout: 10_000 },
      )
      .toEqual(['kept']);
  });

  it('refuses bad options', () => {
    expect(() => instance().rateLimiter('x', { burst: 0, perMinute: 1 })).toThrow(/burst must be at least 1/);
  });
});

describe('createPostgresLimits failure throttles', () => {
  it('backs off after the free failures, shared by every instance, and forgets on success', async () => {
    let t = 20_000_000;
    const options = {
      freeFailures: 2,
      baseDelayMs: 1000,
      maxDelayMs: 8000,
      forgetAfterMs: 60_000,
      now: () => t,
    };
    const [a, b] = [
      instance().failureThrottle('sign-in', options),
      instance().failureThrottle('sign-in', options),
    ];
    await a.fail('me@example.com');
    expect(await b.check('me@example.com')).toEqual({ ok: true });
    await b.fail('me@example.com');
    // Two failures: the first wait is 1 s.
    expect(await a.check('me@example.com')).toEqual({ ok: false, retryAfterS: 1 });
    await Promise.all([a.fail('me@example.com'), b.fail('me@example.com')]);
    expect(await a.check('me@example.com')).toEqual({ ok: false, retryAfterS: 4 });
    t += 4000;
    expect(await b.check('me@example.com')).toEqual({ ok: true });
    await a.succeed('me@example.com');
    await b.fail('me@example.com');
    expect(await a.check('me@example.com')).toEqual({ ok: true });
  });

  it('starts over after forgetAfterMs without a failure', async () => {
    let t = 30_000_000;
    const options = {
      freeFailures: 0,
      baseDelayMs: 1000,
      maxDelayMs: 8000,
      forgetAfterMs: 5000,
      now: () => t,
    };
    const th = instance().failureThrottle('forget', options);
    await th.fail('k');
    await th.fail('k');
    expect(await th.check('k')).toEqual({ ok: false, retryAfterS: 4 });
    t += 5000;
    expect(await th.check('k')).toEqual({ ok: true });
    await th.fail('k');
    // One failure again (not three): 1 s doubled once.
    expect(await th.check('k')).toEqual({ ok: false, retryAfterS: 2 });
  });
});
