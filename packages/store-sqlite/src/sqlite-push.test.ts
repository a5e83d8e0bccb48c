// The push outbox in SQLite: written in the message's own transaction, fanned out per device, and gone
// with its subscription.

import { createTestStore, seedAgent, seedUser, type TestStore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let t: TestStore;
beforeEach(() => {
  t = createTestStore();
});
afterEach(() => t.close());

const KEY = `B${'A'.repeat(86)}`;
const count = (table: string) =>
  (t.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

async function setup() {
  const user = await seedUser(t.store);
  const agent = await seedAgent(t.store, user.id);
  for (const d of ['phone', 'laptop']) {
    await t.store.push.saveSubscription({
      id: `psub_${d}`,
      userId: user.id,
      endpoint: `https://push.example/${d}`,
      p256dh: KEY,
      auth: 'AAAAAAAAAAAAAAAAAAAAAA',
      device: d,
      createdAt: 1,
    });
  }
  return { user, agent };
}

describe('SQLite push outbox', () => {
  it('writes the intent and one row per device with the message', async () => {
    const { user, agent } = await setup();
    const m = await t.store.threads.append(
      {
        id: 'msg_1',
        userId: user.id,
        agentId: agent.id,
        sender: 'agent',
        kind: 'text',
        body: 'hi',
        createdAt: 5,
      },
      { id: 'push_1' },
    );
    const due = await t.store.push.due(5, 10);
    expect(due.map((d) => [d.row.id, d.row.messageId, d.subscription.device])).toEqual([
      ['push_1.1', m.id, 'laptop'],
      ['push_1.2', m.id, 'phone'],
    ]);
    expect(await t.store.push.due(4, 10)).toEqual([]);
    expect(await t.store.push.nextDueAt()).toBe(5);
    expect(await t.store.threads.listPushIntents(user.id)).toHaveLength(1);
  });

  it('a message that fails to write leaves no push behind (one transaction)', async () => {
    const { user } = await setup();
    await expect(
      t.store.threads.append(
        {
          id: 'msg_x',
          userId: user.id,
          agentId: 'agt_missing',
          sender: 'agent',
          kind: 'text',
          body: 'x',
          createdAt: 5,
        },
        { id: 'push_x' },
      ),
    ).rejects.toThrow(/FOREIGN KEY/);
    expect([count('messages'), count('push_intents'), count('push_outbox')]).toEqual([0, 0, 0]);
  });

  it("another person's endpoint is not taken over; removing a subscription drops its queued rows", async () => {
    const { user, agent } = await setup();
    const other = await seedUser(t.store);
    const taken = await t.store.push.saveSubscription({
      id: 'psub_other',
      userId: other.id,
      endpoint: 'https://push.example/phone',
      p256dh: KEY,
      auth: 'AAAAAAAAAAAAAAAAAAAAAA',
      device: null,
      createdAt: 2,
    });
    expect(taken).toBeNull();
    await t.store.threads.append(
      {
        id: 'msg_2',
        userId: user.id,
        agentId: agent.id,
        sender: 'agent',
        kind: 'text',
        body: 'x',
        createdAt: 5,
      },
      { id: 'push_2' },
    );
    await t.store.push.removeSubscriptionById('psub_phone');
    expect((await t.store.push.due(10, 10)).map((d) => d.subscription.device)).toEqual(['laptop']);
    await t.store.push.postpone(['push_2.1'], 99, true);
    expect((await t.store.push.due(99, 10))[0]!.row).toMatchObject({ attempts: 1, nextAt: 99 });
    await t.store.push.settle(['push_2.1']);
    expect(await t.store.push.nextDueAt()).toBeNull();
  });

  it('presence: open on any device until it lapses or closes', async () => {
    const { user, agent } = await setup();
    const key = { agentId: agent.id, userId: user.id };
    await t.store.push.setPresence(key, 'phone', 100);
    await t.store.push.setPresence(key, 'tablet', 200);
    expect(await t.store.push.isOpen(key, 150)).toBe(true);
    await t.store.push.setPresence(key, 'tablet', null);
    expect(await t.store.push.isOpen(key, 150)).toBe(false);
    expect(await t.store.push.isOpen(key, 50)).toBe(true);
  });
});
