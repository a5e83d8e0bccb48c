// Conformance cases: users, app sessions and connectors.
import { hashSecret, newId } from '@screen-service/registry/kernel';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures, outcome } from './fixtures.js';

export const accountCases: ConformanceCase[] = [
  c(
    ['users.create', 'users.delete', 'users.findById', 'users.findByEmail'],
    'email unique, delete cascades to every owned row',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      expect(await store.users.findById(u.id)).toEqual(u);
      expect(await store.users.findByEmail(u.email)).toEqual(u);
      expect(await outcome(store.users.create({ ...u, id: newId('usr_') }))).toBe('EMAIL_TAKEN');
      const con = await f.connector(u.id);
      const a = await f.agent(u.id, 'a', { connectorId: con.id });
      await store.threads.append(f.message({ agentId: a.id, userId: u.id }), f.version());
      expect(await store.users.delete(u.id)).toBe(true);
      expect(await store.users.delete(u.id)).toBe(false);
      expect(await store.users.findById(u.id)).toBeNull();
      expect(await store.agents.get(a.id)).toBeNull();
      expect(await store.connectors.get(con.id)).toBeNull();
      expect(await store.threads.page({ agentId: a.id, userId: u.id, limit: 10 })).toEqual([]);
    },
  ),
  c(
    ['users.getTimeZone', 'users.setTimeZone'],
    "the account's time zone: a device report lands until the person pins one; follow unpins",
    async (store) => {
      const u = await fixtures(store).user();
      expect(await store.users.getTimeZone(u.id)).toEqual({ zone: null, pinned: false });
      expect(await store.users.setTimeZone(u.id, 'America/New_York', 'report')).toBe(true);
      expect(await store.users.getTimeZone(u.id)).toEqual({ zone: 'America/New_York', pinned: false });
      expect(await store.users.setTimeZone(u.id, 'Europe/Berlin', 'pin')).toBe(true);
      // A phone still in New York reports again: the person's choice stays.
      expect(await store.users.setTimeZone(u.id, 'America/New_York', 'report')).toBe(false);
      expect(await store.users.getTimeZone(u.id)).toEqual({ zone: 'Europe/Berlin', pinned: true });
      expect(await store.users.setTimeZone(u.id, 'Asia/Tokyo', 'follow')).toBe(true);
      expect(await store.users.getTimeZone(u.id)).toEqual({ zone: 'Asia/Tokyo', pinned: false });
      expect(await store.users.setTimeZone(u.id, 'UTC', 'report')).toBe(true);
      expect(await store.users.getTimeZone(u.id)).toEqual({ zone: 'UTC', pinned: false });
      expect(await store.users.getTimeZone('usr_nobody')).toBeNull();
      expect(await store.users.setTimeZone('usr_nobody', 'UTC', 'pin')).toBe(false);
      // The zone is no part of the user record the other rules read.
      expect(await store.users.findById(u.id)).toEqual(u);
    },
  ),
  c(
    ['connectors.findByTokenHashWithAccount', 'connectors.revoke', 'connectors.get'],
    'a token hash finds its connector with its account suspension in one read',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const con = await f.connector(u.id);
      expect(await store.connectors.findByTokenHashWithAccount(con.tokenHash)).toEqual({
        connector: await store.connectors.get(con.id),
        account: { suspendedAt: null },
      });
      const held = await f.user({ suspendedAt: 7 });
      const d = await f.connector(held.id);
      expect((await store.connectors.findByTokenHashWithAccount(d.tokenHash))?.account).toEqual({
        suspendedAt: 7,
      });
      expect(await store.connectors.revoke(con.id, 9)).toBe(true);
      expect(await store.connectors.revoke(con.id, 10)).toBe(false);
      expect((await store.connectors.findByTokenHashWithAccount(con.tokenHash))?.connector.revokedAt).toBe(9);
      expect(await store.connectors.findByTokenHashWithAccount(hashSecret('no such token'))).toBeNull();
    },
  ),
  c(
    [
      'sessions.create',
      'sessions.findByRefreshHash',
      'sessions.rotate',
      'sessions.revokeFamily',
      'sessions.familyLive',
    ],
    'a refresh token rotates once; revoking the family ends it',
    async (store) => {
      const u = await fixtures(store).user();
      const s = {
        id: 's1',
        userId: u.id,
        familyId: 'f1',
        refreshHash: 'h1',
        createdAt: 1,
        expiresAt: Date.now() + 60_000,
        usedAt: null,
        revokedAt: null,
      };
      await store.sessions.create(s);
      expect(await store.sessions.findByRefreshHash('h1')).toEqual(s);
      const next = (id: string) => ({ ...s, id, refreshHash: `h-${id}` });
      expect(await store.sessions.rotate('s1', next('s2'), Date.now())).toBe(true);
      expect(await store.sessions.rotate('s1', next('s3'), Date.now())).toBe(false);
      expect((await store.sessions.findByRefreshHash('h1'))?.usedAt).not.toBeNull();
      expect(await store.sessions.findByRefreshHash('h-s3')).toBeNull();
      expect(await store.sessions.familyLive('f1', Date.now())).toBe(true);
      await store.sessions.revokeFamily('f1', Date.now());
      expect(await store.sessions.familyLive('f1', Date.now())).toBe(false);
    },
  ),
  c(
    ['sessions.revokeUser'],
    "revoking a user ends each of the user's families and no one else's",
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const other = await f.user();
      const session = (id: string, userId: string, familyId: string) => ({
        id,
        userId,
        familyId,
        refreshHash: `h-${id}`,
        createdAt: 1,
        expiresAt: Date.now() + 60_000,
        usedAt: null,
        revokedAt: null,
      });
      await store.sessions.create(session('u1', u.id, 'phone'));
      await store.sessions.create(session('u2', u.id, 'laptop'));
      await store.sessions.create(session('o1', other.id, 'theirs'));
      await store.sessions.revokeUser(u.id, Date.now());
      expect(await store.sessions.familyLive('phone', Date.now())).toBe(false);
      expect(await store.sessions.familyLive('laptop', Date.now())).toBe(false);
      expect(await store.sessions.familyLive('theirs', Date.now())).toBe(true);
    },
  ),
];
