// One push sender across instances: two instances with real senders on one database send every buzz once,
// and the lead moves to the other instance when the leader stops or loses its connection.

import { createPushDispatcher, type PushRequest } from '@screen-service/push';
import { createNotifier } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createLeadingSender,
  type LeadingSender,
  openPostgresStore,
  type PostgresStore,
} from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';
import { emptyAllTables } from './empty-tables.js';
import { seedAgent, seedUser } from './seed.js';

let db: TestDatabase;
let a: PostgresStore;
let b: PostgresStore;

beforeAll(async () => {
  db = await createTestDatabase();
  a = await openPostgresStore({ url: db.url });
  b = await openPostgresStore({ url: db.url, migrate: false });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});
beforeEach(() => emptyAllTables(a.pool));

const until = async (what: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Sends every payload to `sent` (a push service that always takes it). */
function instance(store: Store, sent: { by: string; messageId: string }[], by: string): LeadingSender {
  const sender = createPushDispatcher({
    store,
    appUrl: 'http://127.0.0.1:1',
    pollMs: 50,
    transport: {
      async send(request: PushRequest) {
        sent.push({ by, messageId: JSON.parse(request.payload).message_id });
        return { status: 'sent' };
      },
    },
  });
  return createLeadingSender({ url: db.url, sender, notifier: createNotifier(), retryMs: 50 });
}

async function threadsWithDevice(n: number) {
  const user = await seedUser(a);
  await a.push.saveSubscription({
    id: 'psub_phone',
    userId: user.id,
    endpoint: 'https://push.example/phone',
    p256dh: `B${'A'.repeat(86)}`,
    auth: 'AAAAAAAAAAAAAAAAAAAAAA',
    device: 'phone',
    createdAt: 1,
  });
  const agents: { id: string }[] = [];
  for (let i = 0; i < n; i++) agents.push(await seedAgent(a, user.id, `a${i}`));
  let seq = 0;
  return async (store: Store, agentIndex: number) => {
    seq++;
    const n = seq;
    // The row and its buzz in one transaction, as the core writes them.
    const m = await store.transaction(async (tx) => {
      const row = await tx.threads.append(
        {
          id: `msg_${n}`,
          userId: user.id,
          agentId: agents[agentIndex]!.id,
          sender: 'agent',
          kind: 'text',
          body: `hello ${n}`,
          createdAt: Date.now(),
        },
        n,
      );
      await tx.push.enqueueMessage({
        id: `push_${n}`,
        userId: row.userId,
        agentId: row.agentId,
        messageId: row.id,
        at: row.createdAt,
      });
      return row;
    });
    return m.id;
  };
}

const outboxSize = async () =>
  Number((await a.pool.query('SELECT COUNT(*) AS n FROM push_outbox')).rows[0].n);

describe('one push sender across instances', () => {
  it('sends every buzz once while two instances run senders, and hands over when the leader stops', async () => {
    const write = await threadsWithDevice(30);
    const sent: { by: string; messageId: string }[] = [];
    const one = instance(a, sent, 'one');
    const two = instance(b, sent, 'two');
    one.start();
    two.start();
    await until(() => one.leading() || two.leading());
    // Writes through both instances' stores, each in its own thread (nothing collapses).
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await write(i % 2 === 0 ? a : b, i));
    await until(async () => sent.length >= 20 && (await outboxSize()) === 0);
    expect([one.leading(), two.leading()].filter(Boolean)).toHaveLength(1);
    expect(new Set(sent.map((s) => s.by)).size).toBe(1);
    expect(sent.map((s) => s.messageId).sort()).toEqual([...ids].sort());

    const [leader, follower] = one.leading() ? [one, two] : [two, one];
    await leader.stop();
    await until(() => follower.leading());
    for (let i = 20; i < 25; i++) ids.push(await write(a, i));
    await until(async () => sent.length >= 25 && (await outboxSize()) === 0);
    expect(sent.map((s) => s.messageId).sort()).toEqual([...ids].sort());
    await follower.stop();
  });

  it("ends the lead when the leader's connection is cut; one instance leads again, on a new session", async () => {
    const sent: { by: string; messageId: string }[] = [];
    const one = instance(a, sent, 'one');
    one.start();
    await until(() => one.leading());
    const two = instance(b, sent, 'two');
    two.start();
    await new Promise((r) => setTimeout(r, 200));
    expect(two.leading()).toBe(false);
    // The session holding the sender's lock in this test's database (not other test files' databases).
    const holder = async () => {
      const { rows } = await a.pool.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      return rows[0]?.pid ?? null;
    };
    const before = await holder();
    expect(before).not.toBeNull();
    await a.pool.query('SELECT pg_terminate_backend($1)', [before]);
    // Either instance may win the next election (the cut one retries on a new connection); what must hold
    // is that the old session's lead ended and exactly one instance leads, on the session holding the lock.
    await until(async () => {
      const now = await holder();
      return now !== null && now !== before && one.leading() !== two.leading();
    });
    await Promise.all([one.stop(), two.stop()]);
  });
});
