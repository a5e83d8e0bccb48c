// Conformance cases: shared agents' grants, templates and invites.
import { hashSecret } from '@screen-service/registry/kernel';
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

export const templateCases: ConformanceCase[] = [
  c(
    [
      'shares.saveTemplate',
      'shares.getTemplate',
      'shares.getTemplateById',
      'shares.listTemplates',
      'shares.deleteTemplate',
    ],
    'a template is saved with exactly its items (replaced whole), read by name or id, listed by name, deleted',
    async (store) => {
      const f = fixtures(store);
      const o = await f.user();
      const a = await f.agent(o.id, 'a');
      const b = await f.agent(o.id, 'b');
      const item = (agentId: string, sort: number) => ({
        agentId,
        theme: { accent: '#0a0a0a' },
        firstMessage: 'Hi',
        sort,
      });
      const saved = await store.shares.saveTemplate({
        id: 'tpl_1',
        ownerId: o.id,
        name: 'family',
        title: 'Family',
        sharedBy: 'O',
        updatedAt: 5,
        items: [item(b.id, 1), item(a.id, 0)],
      });
      expect(saved).toMatchObject({ id: 'tpl_1', name: 'family', createdAt: 5, updatedAt: 5 });
      expect(saved.items.map((i) => i.agentId)).toEqual([a.id, b.id]);
      // Saved again under the same name: the row stays, the items are exactly the new ones.
      const again = await store.shares.saveTemplate({
        id: 'tpl_ignored',
        ownerId: o.id,
        name: 'family',
        title: 'Kin',
        sharedBy: 'O2',
        updatedAt: 9,
        items: [item(b.id, 0)],
      });
      expect(again).toMatchObject({ id: 'tpl_1', title: 'Kin', sharedBy: 'O2', createdAt: 5, updatedAt: 9 });
      expect(again.items).toEqual([item(b.id, 0)]);
      expect(await store.shares.getTemplate(o.id, 'family')).toEqual(again);
      expect(await store.shares.getTemplateById('tpl_1')).toEqual(again);
      expect(await store.shares.getTemplate(o.id, 'none')).toBeNull();
      expect(await store.shares.getTemplateById('tpl_none')).toBeNull();
      await store.shares.saveTemplate({
        id: 'tpl_2',
        ownerId: o.id,
        name: 'alpha',
        title: 'A',
        sharedBy: 'O',
        updatedAt: 1,
        items: [],
      });
      expect((await store.shares.listTemplates(o.id)).map((t) => t.name)).toEqual(['alpha', 'family']);
      expect(await store.shares.deleteTemplate(o.id, 'alpha')).toBe(true);
      expect(await store.shares.deleteTemplate(o.id, 'alpha')).toBe(false);
      expect((await store.shares.listTemplates(o.id)).map((t) => t.name)).toEqual(['family']);
    },
  ),
  c(
    [
      'shares.createInvite',
      'shares.findInviteByHash',
      'shares.approveInvite',
      'shares.claimInvite',
      'shares.setFirstName',
      'shares.updateHeld',
      'shares.liveForAgents',
    ],
    'an invite is approved once by its owner and claimed once after; a grant holder keeps their own settings',
    async (store) => {
      const f = fixtures(store);
      const o = await f.user();
      const u = await f.user();
      const a = await f.agent(o.id, 'a');
      const t = await store.shares.saveTemplate({
        id: 'tpl_1',
        ownerId: o.id,
        name: 'fam',
        title: 'F',
        sharedBy: 'O',
        updatedAt: 1,
        items: [],
      });
      const invite = {
        id: 'inv_1',
        ownerId: o.id,
        templateId: t.id,
        tokenHash: hashSecret('svc_inv_x'),
        firstName: 'Ada',
        createdAt: 2,
        approvedAt: null,
        claimedAt: null,
        claimedBy: null,
      };
      expect(await store.shares.createInvite(invite)).toEqual(invite);
      expect(await store.shares.findInviteByHash(invite.tokenHash)).toEqual(invite);
      expect(await store.shares.findInviteByHash(hashSecret('nope'))).toBeNull();
      expect(await store.shares.claimInvite('inv_1', u.id, 3)).toBe(false);
      expect(await store.shares.approveInvite(u.id, 'inv_1', 3)).toBe(false);
      expect(await store.shares.approveInvite(o.id, 'inv_1', 4)).toBe(true);
      expect(await store.shares.approveInvite(o.id, 'inv_1', 5)).toBe(false);
      const claims = await Promise.all([
        store.shares.claimInvite('inv_1', u.id, 6),
        store.shares.claimInvite('inv_1', u.id, 6),
      ]);
      expect(claims.sort()).toEqual([false, true]);
      expect(await store.shares.findInviteByHash(invite.tokenHash)).toMatchObject({
        approvedAt: 4,
        claimedAt: 6,
        claimedBy: u.id,
      });
      await store.shares.setFirstName(u.id, 'Ada');
      await store.shares.setFirstName(u.id, 'Bea');
      expect((await store.users.findById(u.id))?.firstName).toBe('Ada');
      const g = await store.shares.createGrant({
        id: 'g1',
        agentId: a.id,
        ownerId: o.id,
        userId: u.id,
        role: 'user',
        theme: {},
        firstMessage: null,
        template: 'fam',
        inviteId: 'inv_1',
        pushMuted: false,
        sort: 0,
        sharedBy: 'O',
        grantedAt: 7,
      });
      expect(await store.shares.updateHeld(g.id, { pushMuted: true })).toMatchObject({
        pushMuted: true,
        sort: 0,
      });
      expect(await store.shares.updateHeld(g.id, { sort: 3 })).toMatchObject({ pushMuted: true, sort: 3 });
      expect((await store.shares.liveForAgents([a.id, 'agt_other'])).map((x) => x.id)).toEqual(['g1']);
      expect(await store.shares.liveForAgents([])).toEqual([]);
      await store.shares.revoke(o.id, a.id, u.id, 8);
      expect(await store.shares.updateHeld(g.id, { sort: 4 })).toBeNull();
      expect(await store.shares.liveForAgents([a.id])).toEqual([]);
    },
  ),
];
