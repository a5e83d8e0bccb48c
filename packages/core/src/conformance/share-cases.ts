// Conformance cases: shared agents' grants, templates and invites.
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

export const shareCases: ConformanceCase[] = [
  c(
    [
      'shares.createGrant',
      'shares.revoke',
      'shares.liveGrant',
      'shares.latestGrant',
      'shares.purgeRevoked',
      'shares.listGiven',
      'shares.listHeld',
      'agents.setSandbox',
    ],
    'grants only for a client-safe agent, one live per (agent, user), purge after revoke',
    async (store) => {
      const f = fixtures(store);
      const o = await f.user();
      const u = await f.user();
      const a = await f.agent(o.id, 'shared');
      const grant = (id: string, at: number) => ({
        id,
        agentId: a.id,
        ownerId: o.id,
        userId: u.id,
        role: 'user' as const,
        theme: {},
        firstMessage: 'Hi',
        template: null,
        inviteId: null,
        pushMuted: false,
        sort: 0,
        sharedBy: 'O',
        grantedAt: at,
      });
      await expect(store.shares.createGrant(grant('g1', 1))).rejects.toMatchObject({
        code: 'NOT_CLIENT_SAFE',
      });
      await store.agents.setSandbox(a.id, { sandbox: {}, clientSafe: true, clientSafeAt: 1 });
      // Only the agent's owner can give it.
      await expect(
        store.shares.createGrant({ ...grant('g0', 1), ownerId: u.id, userId: o.id }),
      ).rejects.toMatchObject({ code: 'NOT_CLIENT_SAFE' });
      expect((await store.shares.createGrant(grant('g1', 1))).revokedAt).toBeNull();
      await expect(store.shares.createGrant(grant('g2', 2))).rejects.toMatchObject({ code: 'CONFLICT' });
      const key = { agentId: a.id, userId: u.id };
      await store.threads.append(f.message(key, 'person', 'x', 2), f.version());
      expect((await store.shares.revoke(o.id, a.id, u.id, 10))!.revokedAt).toBe(10);
      expect(await store.shares.revoke(o.id, a.id, u.id, 11)).toBeNull();
      expect(await store.shares.liveGrant(a.id, u.id)).toBeNull();
      expect((await store.shares.latestGrant(a.id, u.id))!.id).toBe('g1');
      expect(await store.shares.purgeRevoked(10)).toBe(0);
      expect(await store.shares.purgeRevoked(11)).toBe(1);
      expect(await store.threads.page({ ...key, limit: 10 })).toEqual([]);
      expect(await store.shares.listGiven(o.id)).toEqual([]);
      // Deleting the owner leaves no share rows behind.
      await store.shares.createGrant(grant('g3', 20));
      expect((await store.shares.listHeld(u.id)).map((g) => g.id)).toEqual(['g3']);
      await store.users.delete(o.id);
      expect(await store.shares.listHeld(u.id)).toEqual([]);
    },
  ),
];
