// Conformance cases: agents and pairing codes.
import { hashSecret } from '@screen-service/registry/kernel';
import type { AgentRecord, Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures, outcome } from './fixtures.js';

const defaults = async (store: Store, userId: string) =>
  (await store.agents.listByUser(userId)).filter((a) => a.isDefault).map((a) => a.handle);

export const agentCases: ConformanceCase[] = [
  c(
    [
      'agents.create',
      'agents.get',
      'agents.markDefault',
      'agents.setOrder',
      'agents.delete',
      'agents.listByUser',
    ],
    'an agent is stored as given; one default per user; the order is set as listed; delete removes it',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a', { isDefault: true, sort: 0 });
      const b = await f.agent(u.id, 'b', { sort: 1 });
      const c2 = await f.agent(u.id, 'c', { sort: 2 });
      expect(await store.agents.get(a.id)).toEqual(a);
      expect(a).toMatchObject({
        isDefault: true,
        sort: 0,
        pushMuted: false,
        clientSafe: false,
        commands: null,
      });
      expect(await defaults(store, u.id)).toEqual(['a']);
      // A second default is refused by the unique index: the rules clear the old flag first.
      await expect(store.agents.markDefault(b.id, true, 2)).rejects.toThrow();
      await store.agents.markDefault(a.id, false, 2);
      await store.agents.markDefault(b.id, true, 2);
      expect(await defaults(store, u.id)).toEqual(['b']);
      expect((await store.agents.get(b.id))?.updatedAt).toBe(2);
      await store.agents.setOrder(u.id, [c2.id, b.id, a.id], 3);
      expect((await store.agents.listByUser(u.id)).map((x) => [x.handle, x.sort])).toEqual([
        ['c', 0],
        ['b', 1],
        ['a', 2],
      ]);
      // Another user's agent named in the list is left as it is.
      const v = await f.user();
      const other = await f.agent(v.id, 'o', { sort: 5 });
      await store.agents.setOrder(u.id, [other.id], 4);
      expect((await store.agents.get(other.id))?.sort).toBe(5);
      expect(await store.agents.delete(a.id)).toBe(true);
      expect(await store.agents.delete(a.id)).toBe(false);
      expect(await store.agents.get(a.id)).toBeNull();
      expect((await store.agents.listByUser(u.id)).map((x) => x.handle)).toEqual(['c', 'b']);
    },
  ),
  c(
    ['agents.create', 'agents.findByHandle', 'agents.findByRemoteRef'],
    'handle unique per user, remote_ref unique per connector',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const v = await f.user();
      const same = await f.agent(u.id, 'same');
      await f.agent(v.id, 'same');
      expect(await outcome(f.agent(u.id, 'same'))).toBe('HANDLE_TAKEN');
      expect((await store.agents.findByHandle(u.id, 'same'))?.id).toBe(same.id);
      expect(await store.agents.findByHandle(u.id, 'other')).toBeNull();
      const con = await f.connector(u.id);
      const r1 = await f.agent(u.id, 'r1', { connectorId: con.id, remoteRef: 'ref' });
      expect(await outcome(f.agent(u.id, 'r2', { connectorId: con.id, remoteRef: 'ref' }))).toBe(
        'PROFILE_ALREADY_ADDED',
      );
      expect((await store.agents.findByRemoteRef(con.id, 'ref'))?.id).toBe(r1.id);
      expect(await store.agents.findByRemoteRef(con.id, 'nope')).toBeNull();
    },
  ),
  c(
    ['pairing.insert', 'pairing.findUnused', 'pairing.deleteUnusedOf', 'pairing.delete', 'pairing.claim'],
    'an unused hash is unique; a code is claimed once (two racing claims: one wins)',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const p1 = f.pairingCode(u.id, a.id, '111111');
      expect(await store.pairing.insert(p1)).toBe(true);
      expect(await store.pairing.insert(f.pairingCode(u.id, b.id, '111111'))).toBe(false);
      expect(await store.pairing.findUnused(hashSecret('111111'))).toEqual(p1);
      expect(await store.pairing.insert(f.pairingCode(u.id, a.id, '222222'))).toBe(true);
      expect(await store.pairing.insert(f.pairingCode(u.id, b.id, '333333'))).toBe(true);
      expect(await store.pairing.deleteUnusedOf(a.id)).toBe(2);
      expect(await store.pairing.findUnused(hashSecret('111111'))).toBeNull();
      expect(await store.pairing.findUnused(hashSecret('333333'))).not.toBeNull();
      const p4 = f.pairingCode(u.id, a.id, '444444');
      await store.pairing.insert(p4);
      const con = await f.connector(u.id);
      const claim = () => store.pairing.claim(p4.id, { at: 5, connectorId: con.id });
      // Exactly one of two racing claims wins; which one is up to the store (PostgreSQL runs them at once).
      expect((await Promise.all([claim(), claim()])).sort()).toEqual([false, true]);
      expect(await store.pairing.findUnused(p4.codeHash)).toBeNull();
      // A used code keeps its hash out of the unique index: the same digits can be minted again.
      expect(await store.pairing.insert(f.pairingCode(u.id, b.id, '444444'))).toBe(true);
      expect(await store.pairing.delete(p4.id)).toBe(true);
      expect(await store.pairing.delete(p4.id)).toBe(false);
      expect(await store.pairing.claim(p4.id, { at: 6, connectorId: null })).toBe(false);
    },
  ),
  c(
    ['agents.bind', 'agents.addConnection', 'agents.listByConnector'],
    'an agent moves to a primary connection as a profile (unique per connection) or is served by another too',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const host = await f.connector(u.id);
      const signIn = await f.connector(u.id);
      await store.agents.bind(a.id, { connectorId: host.id, remoteRef: 'claude', kind: 'hostfw' }, 7);
      expect(await store.agents.get(a.id)).toMatchObject({
        connectorId: host.id,
        remoteRef: 'claude',
        kind: 'hostfw',
        updatedAt: 7,
      });
      expect(
        await outcome(
          store.agents.bind(b.id, { connectorId: host.id, remoteRef: 'claude', kind: 'hostfw' }, 8),
        ),
      ).toBe('PROFILE_ALREADY_ADDED');
      await store.agents.addConnection(a.id, signIn.id, u.id, 9);
      await store.agents.addConnection(a.id, signIn.id, u.id, 10);
      expect((await store.agents.listByConnector(signIn.id)).map((x) => x.id)).toEqual([a.id]);
      expect((await store.agents.listByConnector(host.id)).map((x) => x.id)).toEqual([a.id]);
      expect((await store.agents.get(a.id))?.connectorId).toBe(host.id);
    },
  ),
  c(
    ['agents.listByConnectorWithUnhandled'],
    "the agents a connection serves with each thread's unhandled person rows, in listByConnector's order",
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const other = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const host = await f.connector(u.id);
      await store.agents.bind(a.id, { connectorId: host.id, remoteRef: 'a', kind: 'hostfw' }, 7);
      await store.agents.bind(b.id, { connectorId: host.id, remoteRef: 'b', kind: 'hostfw' }, 8);
      const write = (agentId: string, userId: string, sender: 'agent' | 'person') =>
        store.threads.append(f.message({ agentId, userId }, sender), f.version());
      await write(a.id, u.id, 'person');
      await write(a.id, u.id, 'person');
      await write(a.id, u.id, 'agent');
      await write(a.id, other.id, 'person');
      const handled = await write(b.id, u.id, 'person');
      await store.threads.markRowsHandled({ agentId: b.id, userId: u.id }, [handled.id], 9, f.version());
      const served = await store.agents.listByConnector(host.id);
      const counts = async (userId: string) =>
        (await store.agents.listByConnectorWithUnhandled(host.id, userId)).map((x) => [x.agent, x.unhandled]);
      // listByConnector's order (a and b may tie on sort and time: then by id), each as its summary.
      const summary = ({ id, userId, name, handle, color, isDefault, sort, createdAt }: AgentRecord) => ({
        id,
        userId,
        name,
        handle,
        color,
        isDefault,
        sort,
        createdAt,
      });
      const want = (n: Record<string, number>) => served.map((x) => [summary(x), n[x.id]]);
      expect(await counts(u.id)).toEqual(want({ [a.id]: 2, [b.id]: 0 }));
      expect(await counts(other.id)).toEqual(want({ [a.id]: 1, [b.id]: 0 }));
      expect(await store.agents.listByConnectorWithUnhandled('con_none', u.id)).toEqual([]);
    },
  ),
];
