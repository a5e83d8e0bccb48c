// Conformance cases: push subscriptions, the push outbox and per-device thread presence.
import { AgentRowRefused, type Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

const KEY = `B${'A'.repeat(86)}`;

/** A user with an agent and two devices subscribed (`psub_phone`, `psub_laptop`). */
async function withDevices(store: Store) {
  const f = fixtures(store);
  const user = await f.user();
  const agent = await f.agent(user.id, 'a');
  for (const d of ['phone', 'laptop']) {
    const sub = {
      id: `psub_${d}`,
      userId: user.id,
      endpoint: `https://push.example/${d}`,
      p256dh: KEY,
      auth: 'AAAAAAAAAAAAAAAAAAAAAA',
      device: d,
      createdAt: d === 'phone' ? 1 : 2,
    };
    expect(await store.push.saveSubscription(sub)).toEqual(sub);
  }
  return { f, user, agent, key: { agentId: agent.id, userId: user.id } };
}

export const pushCases: ConformanceCase[] = [
  c(
    ['push.enqueueMessage', 'push.due', 'push.nextDueAt', 'threads.listPushIntents', 'transaction'],
    'a message buzz is its intent and one row per device, written with the message or not at all',
    async (store) => {
      const { f, user, key } = await withDevices(store);
      const m = await store.transaction(async (tx) => {
        const row = await tx.threads.append({ ...f.message(key), id: 'msg_1', createdAt: 5 }, f.version());
        const rows = await tx.push.enqueueMessage({ id: 'push_1', ...key, messageId: row.id, at: 5 });
        expect(rows).toBe(2);
        return row;
      });
      const due = await store.push.due(5, 10);
      expect(due.map((d) => [d.row.id, d.row.kind, d.row.messageId, d.subscription.device])).toEqual([
        ['push_1.1', 'message', m.id, 'laptop'],
        ['push_1.2', 'message', m.id, 'phone'],
      ]);
      expect(due[0]!.subscription).toMatchObject({ id: 'psub_laptop', userId: user.id, p256dh: KEY });
      expect(await store.push.due(4, 10)).toEqual([]);
      expect(await store.push.nextDueAt()).toBe(5);
      expect(await store.threads.listPushIntents(user.id)).toEqual([
        { id: 'push_1', userId: user.id, agentId: key.agentId, messageId: m.id, createdAt: 5, sentAt: null },
      ]);
      // A message that fails to write takes its push with it.
      await expect(
        store.transaction(async (tx) => {
          await tx.push.enqueueMessage({ id: 'push_x', ...key, messageId: 'msg_1', at: 6 });
          await tx.threads.append({ ...f.message(key), id: 'msg_x', agentId: 'agt_missing' }, f.version());
        }),
      ).rejects.toThrow(/foreign key/i);
      expect(await store.threads.listPushIntents(user.id)).toHaveLength(1);
      expect(await store.push.due(10, 10)).toHaveLength(2);
    },
  ),
  c(
    [
      'push.saveSubscription',
      'push.listSubscriptions',
      'push.removeSubscription',
      'push.removeSubscriptionById',
      'push.postpone',
      'push.settle',
      'push.enqueueRevoked',
      'push.markIntentsSent',
    ],
    "keeps another person's endpoint, drops a removed subscription's rows, postpones and settles",
    async (store) => {
      const { f, user, agent, key } = await withDevices(store);
      const other = await f.user();
      const sub = { endpoint: 'https://push.example/phone', p256dh: KEY, auth: 'A'.repeat(22), device: null };
      expect(
        await store.push.saveSubscription({ ...sub, id: 'psub_o', userId: other.id, createdAt: 3 }),
      ).toBeNull();
      // The owner's own endpoint again: the keys and device change, the row stays.
      const again = await store.push.saveSubscription({
        ...sub,
        id: 'psub_new',
        userId: user.id,
        createdAt: 4,
      });
      expect(again).toMatchObject({ id: 'psub_phone', device: null, auth: 'A'.repeat(22) });
      expect((await store.push.listSubscriptions(user.id)).map((s) => s.id)).toEqual([
        'psub_phone',
        'psub_laptop',
      ]);
      const m = await store.threads.append({ ...f.message(key), id: 'msg_2', createdAt: 5 }, f.version());
      await store.push.enqueueMessage({ id: 'push_2', ...key, messageId: m.id, at: 5 });
      await store.push.removeSubscriptionById('psub_phone');
      expect((await store.push.due(10, 10)).map((d) => d.subscription.device)).toEqual(['laptop']);
      await store.push.postpone(['push_2.1'], 99, true);
      expect((await store.push.due(99, 10))[0]!.row).toMatchObject({ attempts: 1, nextAt: 99 });
      await store.push.postpone(['push_2.1'], 120, false);
      expect((await store.push.due(120, 10))[0]!.row).toMatchObject({ attempts: 1, nextAt: 120 });
      await store.push.settle(['push_2.1']);
      expect(await store.push.nextDueAt()).toBeNull();
      expect(await store.push.enqueueRevoked({ id: 'rv', userId: user.id, agentId: agent.id, at: 7 })).toBe(
        1,
      );
      expect((await store.push.due(7, 10)).map((d) => [d.row.id, d.row.kind, d.row.messageId])).toEqual([
        ['rv.1', 'revoked', null],
      ]);
      await store.push.markIntentsSent([m.id], 8);
      expect((await store.threads.listPushIntents(user.id))[0]!.sentAt).toBe(8);
      expect(await store.push.removeSubscription(user.id, 'https://push.example/laptop')).toBe(true);
      expect(await store.push.removeSubscription(user.id, 'https://push.example/laptop')).toBe(false);
      expect(await store.push.listSubscriptions(user.id)).toEqual([]);
      expect(await store.push.nextDueAt()).toBeNull();
    },
  ),
  c(
    ['threads.appendWithPush'],
    "an agent row and its buzz in one write: the rules' answer for the open state found at the row's time",
    async (store) => {
      const { f, user, key } = await withDevices(store);
      const write = (id: string, at: number, push: { ifOpen: boolean; ifClosed: boolean }, screen = false) =>
        store.threads.appendWithPush({
          message: { ...f.message(key, 'agent', id), id: `msg_${id}`, createdAt: at },
          screen: screen
            ? { id: `scr_${id}`, lines: 'confirm@go "Go?"', ops: [{ op: 'x' }], taps: [] }
            : null,
          version: f.version(),
          push: { id: `push_${id}`, ...push },
        });
      // Closed: the closed answer holds; a screen is written with its row.
      const a = await write('a', 10, { ifOpen: false, ifClosed: true }, true);
      expect(a.pushed).toBe(true);
      expect(a.screen).toMatchObject({ id: 'scr_a', messageId: 'msg_a', messageSeq: a.message.seq });
      expect(await store.threads.getScreen('scr_a')).toMatchObject({
        messageId: 'msg_a',
        lines: 'confirm@go "Go?"',
      });
      expect((await store.threads.getMessage('msg_a'))?.screenId).toBe('scr_a');
      expect((await store.push.due(10, 10)).map((d) => [d.row.id, d.row.messageId, d.row.nextAt])).toEqual([
        ['push_a.1', 'msg_a', 10],
        ['push_a.2', 'msg_a', 10],
      ]);
      // Open at the row's time (not after it lapsed): the open answer holds, both ways.
      await store.push.setPresence(key, 'phone', 100);
      const b = await write('b', 20, { ifOpen: false, ifClosed: true });
      expect([b.pushed, b.screen, b.message.screenId]).toEqual([false, null, null]);
      expect((await write('c', 30, { ifOpen: true, ifClosed: false })).pushed).toBe(true);
      expect((await write('d', 100, { ifOpen: true, ifClosed: false })).pushed).toBe(false);
      expect((await write('e', 110, { ifOpen: false, ifClosed: false })).pushed).toBe(false);
      expect(
        (await store.threads.listPushIntents(user.id)).map((p) => [p.id, p.messageId, p.createdAt]),
      ).toEqual([
        ['push_a', 'msg_a', 10],
        ['push_c', 'msg_c', 30],
      ]);
      expect(await store.push.due(200, 10)).toHaveLength(4);
      // A row refused (its agent is gone) writes no buzz either.
      await expect(
        store.threads.appendWithPush({
          message: { ...f.message(key), id: 'msg_x', agentId: 'agt_missing', createdAt: 40 },
          screen: null,
          version: f.version(),
          push: { id: 'push_x', ifOpen: true, ifClosed: true },
        }),
      ).rejects.toThrow(/foreign key/i);
      expect(await store.threads.listPushIntents(user.id)).toHaveLength(2);
    },
  ),
  c(
    ['threads.appendWithPush'],
    'a guarded agent row is written only while the connection serves the agent, and nothing else with it',
    async (store) => {
      const { f, user, agent, key } = await withDevices(store);
      const other = await f.user();
      const own = await f.connector(user.id);
      const extra = await f.connector(user.id);
      const stranger = await f.connector(other.id);
      await store.agents.bind(agent.id, { connectorId: own.id, remoteRef: 'a', kind: 'hostfw' }, 5);
      await store.agents.addConnection(agent.id, extra.id, user.id, 6);
      const write = (id: string, servedBy: { connectorId: string; userId: string }, screen = false) =>
        store.threads.appendWithPush({
          message: { ...f.message(key, 'agent', id), id: `msg_${id}`, createdAt: 10 },
          screen: screen ? { id: `scr_${id}`, lines: 'confirm@go "Go?"', ops: [], taps: [] } : null,
          version: f.version(),
          push: { id: `push_${id}`, ifOpen: true, ifClosed: true },
          servedBy,
        });
      // Its own connector and a connection it was added to both serve it.
      expect((await write('a', { connectorId: own.id, userId: user.id })).pushed).toBe(true);
      expect((await write('b', { connectorId: extra.id, userId: user.id }, true)).screen?.id).toBe('scr_b');
      // Another person's connection, or this connection for another person: nothing is written.
      for (const [id, by] of [
        ['c', { connectorId: stranger.id, userId: user.id }],
        ['d', { connectorId: own.id, userId: other.id }],
        ['e', { connectorId: 'con_gone', userId: user.id }],
      ] as const) {
        await expect(write(id, by, true)).rejects.toBeInstanceOf(AgentRowRefused);
      }
      // The extra connection deleted: refused from then on.
      expect(await store.connectors.delete(extra.id)).toBe(true);
      await expect(write('f', { connectorId: extra.id, userId: user.id })).rejects.toBeInstanceOf(
        AgentRowRefused,
      );
      const rows = await store.threads.page({ ...key, limit: 10 });
      expect(rows.map((m) => m.id).sort()).toEqual(['msg_a', 'msg_b']);
      expect(await store.threads.getScreen('scr_c')).toBeNull();
      expect((await store.threads.listPushIntents(user.id)).map((p) => p.id).sort()).toEqual([
        'push_a',
        'push_b',
      ]);
    },
  ),
  c(
    ['threads.appendWithPush', 'threads.page', 'threads.listPushIntents'],
    'agent rows written at once into one thread: each its own outcome, in the order they came',
    async (store) => {
      const { f, user, agent, key } = await withDevices(store);
      const own = await f.connector(user.id);
      const stranger = await f.connector((await f.user()).id);
      await store.agents.bind(agent.id, { connectorId: own.id, remoteRef: 'a', kind: 'hostfw' }, 5);
      await store.push.setPresence(key, 'phone', 25);
      const write = (
        id: string,
        at: number,
        o: { screen?: boolean; by?: string; idem?: string; ifOpen?: boolean } = {},
      ) =>
        store.threads.appendWithPush({
          message: {
            ...f.message(key, 'agent', id),
            id: `msg_${id}`,
            createdAt: at,
            connectorId: own.id,
            ...(o.idem ? { idemKey: o.idem } : {}),
          },
          screen: o.screen ? { id: `scr_${id}`, lines: `confirm@${id} "${id}?"`, ops: [], taps: [] } : null,
          version: f.version(),
          push: { id: `push_${id}`, ifOpen: o.ifOpen ?? false, ifClosed: true },
          ...(o.by ? { servedBy: { connectorId: o.by, userId: user.id } } : {}),
        });
      await write('first', 1, { idem: 'k1' });
      // All in one turn: rows and screens, guarded or not, open (before 25) or closed, one refused by its
      // guard, one whose idempotency key is taken.
      const outcomes = await Promise.allSettled([
        write('a', 10),
        write('b', 20, { screen: true, by: own.id }),
        write('c', 30, { ifOpen: true }),
        write('d', 40, { screen: true, by: stranger.id }),
        write('e', 50, { idem: 'k1' }),
        write('f', 60, { screen: true, by: own.id, ifOpen: true }),
      ]);
      const [a, b, c3, d, e, f6] = outcomes;
      expect(d).toMatchObject({ status: 'rejected', reason: expect.any(AgentRowRefused) });
      expect(e).toMatchObject({ status: 'rejected', reason: { code: 'CONFLICT' } });
      const done = [a, b, c3, f6].map((o) => {
        if (o?.status !== 'fulfilled') throw new Error(`expected written, got ${String(o?.reason)}`);
        return o.value;
      });
      expect(done.map((r) => [r.message.id, r.screen?.id ?? null, r.pushed])).toEqual([
        ['msg_a', null, false],
        ['msg_b', 'scr_b', false],
        ['msg_c', null, true],
        ['msg_f', 'scr_f', true],
      ]);
      // Again without the taken key (PostgreSQL writes these three in one statement): the refused row is
      // still refused alone.
      const again = await Promise.allSettled([
        write('g', 70, { screen: true, by: own.id }),
        write('h', 80, { by: stranger.id }),
        write('i', 90),
      ]);
      expect(again.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(again[1]).toMatchObject({ reason: expect.any(AgentRowRefused) });
      for (const o of [again[0], again[2]]) if (o?.status === 'fulfilled') done.push(o.value);
      // Seqs follow the order the writes came in, and each screen carries its row's.
      const seqs = done.map((r) => r.message.seq);
      expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
      expect(done[1]!.screen?.messageSeq).toBe(done[1]!.message.seq);
      expect((await store.threads.getScreen('scr_f'))?.messageId).toBe('msg_f');
      expect(await store.threads.getScreen('scr_d')).toBeNull();
      const page = await store.threads.page({ ...key, limit: 10 });
      expect(page.map((m) => m.id).sort()).toEqual([
        'msg_a',
        'msg_b',
        'msg_c',
        'msg_f',
        'msg_first',
        'msg_g',
        'msg_i',
      ]);
      expect((await store.threads.getScreen('scr_g'))?.messageSeq).toBe(done[4]!.message.seq);
      // Each written row's buzz with it, one outbox row per device (a and b came while the thread was open,
      // where the rules said no buzz), none for the two not written.
      expect((await store.threads.listPushIntents(user.id)).map((p) => p.id).sort()).toEqual([
        'push_c',
        'push_f',
        'push_g',
        'push_i',
      ]);
      expect(await store.push.due(100, 10)).toHaveLength(8);
    },
  ),
  c(
    ['push.setPresence', 'push.isOpen'],
    'presence: open on any device until it lapses or closes',
    async (store) => {
      const { key } = await withDevices(store);
      await store.push.setPresence(key, 'phone', 100);
      await store.push.setPresence(key, 'tablet', 200);
      expect(await store.push.isOpen(key, 150)).toBe(true);
      expect(await store.push.isOpen({ ...key, agentId: 'agt_other' }, 150)).toBe(false);
      await store.push.setPresence(key, 'tablet', null);
      expect(await store.push.isOpen(key, 150)).toBe(false);
      expect(await store.push.isOpen(key, 50)).toBe(true);
    },
  ),
];
