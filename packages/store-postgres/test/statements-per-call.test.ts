// The statements svc_show, svc_say and svc_threads send on PostgreSQL (issue 42, ADRs 0289 and 0291), counted
// at the driver: the rate bucket, then an agent row and its buzz in one statement (no BEGIN, open-state read,
// push intent, COMMIT of their own) that also checks the connection still serves the agent (the agent is
// picked from the list this process last read), and svc_threads is one read. Guards the round trips the
// bench's ratios rest on.
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
});
