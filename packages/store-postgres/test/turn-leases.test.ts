// svc_turn_leases: one holder at a time per agent, renewable by its holder, free again when released or lapsed.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTurnLeases, ensureScaleSchema } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

let db: TestDatabase;
let poolA: pg.Pool;
let poolB: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  poolA = new pg.Pool({ connectionString: db.url, max: 4 });
  poolB = new pg.Pool({ connectionString: db.url, max: 4 });
  await ensureScaleSchema(poolA);
});
afterAll(async () => {
  await poolA?.end();
  await poolB?.end();
  await db?.drop();
});

describe('turn leases on PostgreSQL', () => {
  it('one holder at a time; the holder renews; release frees it', async () => {
    const a = createPostgresTurnLeases({ pool: poolA });
    const b = createPostgresTurnLeases({ pool: poolB });
    expect(await a.claim('agt_1', 'a', 60_000)).toBe(true);
    expect(await b.claim('agt_1', 'b', 60_000)).toBe(false);
    expect(await a.claim('agt_1', 'a', 60_000)).toBe(true);
    // Another agent's lease is its own.
    expect(await b.claim('agt_2', 'b', 60_000)).toBe(true);
    // Releasing someone else's lease does nothing.
    await b.release('agt_1', 'b');
    expect(await b.claim('agt_1', 'b', 60_000)).toBe(false);
    await a.release('agt_1', 'a');
    expect(await b.claim('agt_1', 'b', 60_000)).toBe(true);
  });

  it('ten instances racing for one lease: exactly one wins', async () => {
    const leases = createPostgresTurnLeases({ pool: poolB });
    const wins = await Promise.all(
      Array.from({ length: 10 }, (_, i) => leases.claim('agt_race', `i${i}`, 60_000)),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('a lapsed lease (its holder died) goes to the next claimant, by the database clock', async () => {
    const a = createPostgresTurnLeases({ pool: poolA });
    const b = createPostgresTurnLeases({ pool: poolB });
    expect(await a.claim('agt_3', 'a', 1)).toBe(true);
    await expect.poll(() => b.claim('agt_3', 'b', 60_000)).toBe(true);
    expect(await a.claim('agt_3', 'a', 60_000)).toBe(false);
  });
});
