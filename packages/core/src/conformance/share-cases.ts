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
      'shares.deleteRevokedBefore',
      'shares.listGiven',
      'shares.listHeld',
      'threads.deleteThread',
    ],
    'one live grant per (agent, user); revoked grants are deleted on request; a thread is deleted whole',
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
        theme: { accent: '#123456' },
        firstMessage: 'Hi',
        template: null,
        inviteId: null,
        pushMuted: false,
        sort: 0,
        sharedBy: 'O',
        grantedAt: at,
      });
      const g1 = await store.shares.createGrant(grant('g1', 1));
      expect(g1).toEqual({ ...grant('g1', 1), revokedAt: null });
      await expect(store.shares.createGrant(grant('g2', 2))).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(await store.shares.liveGrant(a.id, u.id)).toEqual(g1);
      expect(await store.shares.listHeld(u.id)).toEqual([g1]);
      const key = { agentId: a.id, userId: u.id };
      await store.threads.append(f.message(key, 'person', 'x', 2), f.version());
      await store.threads.markRead(key, 1, f.version());
      await store.push.setPresence(key, 'phone', 99);
      expect((await store.shares.revoke(o.id, a.id, u.id, 10))!.revokedAt).toBe(10);
      expect(await store.shares.revoke(o.id, a.id, u.id, 11)).toBeNull();
      expect(await store.shares.liveGrant(a.id, u.id)).toBeNull();
      expect(await store.shares.listHeld(u.id)).toEqual([]);
      expect((await store.shares.latestGrant(a.id, u.id))!.id).toBe('g1');
      expect((await store.shares.listGiven(o.id)).map((g) => g.id)).toEqual(['g1']);
      expect(await store.shares.deleteRevokedBefore(10)).toEqual([]);
      expect((await store.shares.deleteRevokedBefore(11)).map((g) => [g.id, g.revokedAt])).toEqual([
        ['g1', 10],
      ]);
      expect(await store.shares.listGiven(o.id)).toEqual([]);
      // The thread outlives its grant until the rules delete it.
      expect(await store.threads.page({ ...key, limit: 10 })).toHaveLength(1);
      await store.threads.deleteThread(key);
      expect(await store.threads.page({ ...key, limit: 10 })).toEqual([]);
      expect(await store.threads.getState(key)).toMatchObject({ readSeq: 0, pageVersion: null });
      expect(await store.push.isOpen(key, 50)).toBe(false);
      // Deleting the owner leaves no share rows behind.
      await store.shares.createGrant(grant('g3', 20));
      expect((await store.shares.listHeld(u.id)).map((g) => g.id)).toEqual(['g3']);
      await store.users.delete(o.id);
      expect(await store.shares.listHeld(u.id)).toEqual([]);
    },
  ),
];
