// The statements svc_show, svc_say and svc_threads send on PostgreSQL (issue 42, ADRs 0289 and 0291), counted
// at the driver: the rate bucket, then an agent row and its buzz in one statement (no BEGIN, open-state read,
// push intent, COMMIT of their own) that also checks the connection still serves the agent (the agent is
// picked from the list this process last read), and svc_threads is one read. Guards the round trips the
// bench's ratios rest on. Calls that come together share their statements (ADR 0296).
import { randomBytes } from 'node:crypto';
import { type Core, createCore } from '@screen-service/core';
import { fastHasher, seedConnection, seedUser } from '@screen-service/test-kit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresNotifier } from '../src/notify/postgres-notifier.js';
import { createPostgresServices, type PostgresServices } from '../src/postgres-services.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

let db: TestDatabase;
let services: PostgresServices;
let core: Core;
let principal: Awaited<ReturnType<Core['connectionAuth']['verify']>>;
let sent: string[] | null = null;
const original = pg.Client.prototype.query;

beforeAll(async () => {
  db = await createTestDatabase();
  services = await createPostgresServices(db.url, {});
  core = createCore({
    hasher: fastHasher,
    secret: new TextEncoder().encode(randomBytes(32).toString('base64url')),
    urls: 'http://127.0.0.1',
    ...services.core,
  });
  const user = await seedUser(core.store);
  const { token } = await seedConnection(core.store, user.id, ['main', 'second']);
  principal = await core.connectionAuth.verify(token);
  // Every statement any client of this process sends while `sent` is set (the notifier's NOTIFY included).
  pg.Client.prototype.query = function query(this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    sent?.push(text.replace(/\s+/g, ' ').trim());
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
});
afterAll(async () => {
  pg.Client.prototype.query = original;
  await services?.close();
  await db?.drop();
});

/** Every event published so far was sent. */
const flushed = () => (services.core.notifier as PostgresNotifier).flush();

/** The statements one call sends, its batched NOTIFY left out (it leaves after the call answered). */
async function statementsOf(call: () => Promise<unknown>): Promise<string[]> {
  await call(); // warms the pool and the prepared statements
  await flushed();
  sent = [];
  await call();
  await flushed();
  const out = sent.filter((t) => !t.includes('pg_notify'));
  sent = null;
  return out;
}

describe('statements per call on PostgreSQL', () => {
  it('svc_show and svc_say: the rate bucket, then the served check, the row and its buzz in one statement (ADR 0291)', async () => {
    for (const call of [
      () => core.threadOps.show(principal, { lines: 'choose@lunch "Lunch?" Pasta|Salad' }),
      () => core.threadOps.say(principal, { text: 'hello' }),
    ]) {
      const texts = await statementsOf(call);
      expect(texts).toHaveLength(2);
      expect(texts[0]).toMatch(/^INSERT INTO svc_limits/);
      expect(texts[1]).toMatch(
        /^WITH g AS \( SELECT EXISTS \(SELECT 1 FROM agents a .* m AS \( INSERT INTO messages .* INSERT INTO push_intents .*/,
      );
      expect(texts.some((t) => /^(BEGIN|COMMIT)$/.test(t))).toBe(false);
    }
    // The row's buzz was queued with it (nobody holds the thread open).
    expect((await core.store.threads.listPushIntents(principal.userId)).length).toBeGreaterThanOrEqual(4);
  });

  it('svc_threads: one read for every served agent and its unread count', async () => {
    const texts = await statementsOf(() => core.threadOps.threads(principal));
    expect(texts).toHaveLength(1);
    expect((await core.threadOps.threads(principal)).agents).toHaveLength(2);
  });

  it('calls that come together: sixteen svc_show into one thread are one rate take and one row statement (ADR 0296)', async () => {
    await core.threadOps.show(principal, { lines: 'confirm@warm "Warm?"' });
    await flushed();
    sent = [];
    const shown = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        core.threadOps.show(principal, { lines: `confirm@q${i} "Q${i}?"` }),
      ),
    );
    await flushed();
    const texts = sent.filter((t) => !t.includes('pg_notify'));
    sent = null;
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/^INSERT INTO svc_limits/);
    expect(texts[1]).toMatch(/^WITH r AS \( SELECT \* FROM unnest\(/);
    // Each call got its own screen, in the order the calls came.
    expect(new Set(shown.map((s) => s.screen_id)).size).toBe(16);
    const screens = await core.store.threads.listScreens(shown.map((s) => s.screen_id));
    const seqOf = new Map(screens.map((s) => [s.id, s.messageSeq]));
    const seqs = shown.map((s) => seqOf.get(s.screen_id)!);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(screens.map((s) => s.lines).sort()).toEqual(
      Array.from({ length: 16 }, (_, i) => `confirm@q${i} "Q${i}?"`).sort(),
    );
  });

  it('calls that come together: svc_threads of two connections are one read, each its own agents (ADR 0296)', async () => {
    const other = await seedUser(core.store);
    const second = await seedConnection(core.store, other.id, ['theirs']);
    const theirs = await core.connectionAuth.verify(second.token);
    const alone = [await core.threadOps.threads(principal), await core.threadOps.threads(theirs)];
    sent = [];
    const together = await Promise.all(
      Array.from({ length: 12 }, (_, i) => core.threadOps.threads(i % 3 === 0 ? theirs : principal)),
    );
    const texts = sent;
    sent = null;
    expect(texts).toHaveLength(1);
    together.forEach((got, i) => {
      expect(got).toEqual(i % 3 === 0 ? alone[1] : alone[0]);
    });
    expect(alone[1]!.agents.map((a) => a.name)).toEqual(['theirs']);
  });
});
