// Conformance cases: agents and pairing codes.
import { hashSecret } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures, outcome } from './fixtures.js';

const defaults = async (store: Store, userId: string) =>
  (await store.agents.listByUser(userId)).filter((a) => a.isDefault).map((a) => a.handle);

export const agentCases: ConformanceCase[] = [
  c(
    ['agents.create', 'agents.setDefault', 'agents.reorder', 'agents.delete', 'agents.listByUser'],
    'first is default, setDefault clears the old, delete hands over to the first remaining',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const d = await f.agent(u.id, 'c', { isDefault: true });
      expect(await defaults(store, u.id)).toEqual(['c']);
      await store.agents.setDefault(u.id, a.id, 2);
      expect(await defaults(store, u.id)).toEqual(['a']);
      await store.agents.reorder(u.id, [d.id, b.id, a.id], 3);
      await store.agents.delete(a.id, Date.now());
      expect(await defaults(store, u.id)).toEqual(['c']);
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
    ['pairing.mint', 'pairing.findUnused', 'pairing.complete'],
    'mint replaces unused codes; complete claims once',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const row = (id: string, secret: string) => ({ ...f.pairingCode(u.id, a.id, secret), id });
      expect(await store.pairing.mint(row('p1', '111111'))).toBe(true);
      expect(await store.pairing.mint(row('p2', '222222'))).toBe(true);
      expect(await store.pairing.findUnused(hashSecret('111111'))).toBeNull();
      expect((await store.pairing.findUnused(hashSecret('222222')))?.id).toBe('p2');
      const con = await f.connector(u.id);
      const claim = () =>
        store.pairing.complete({
          codeId: 'p2',
          at: Date.now(),
          agentId: a.id,
          remoteRef: 'r',
          kind: 'mcp',
          connectorId: con.id,
        });
      // Exactly one of two racing claims wins; which one is up to the store (PostgreSQL runs them at once).
      expect((await Promise.all([claim(), claim()])).sort()).toEqual([false, true]);
      expect((await store.agents.get(a.id))?.connectorId).toBe(con.id);
    },
  ),
];
