// Conformance cases: Store.transaction (commit, roll back on throw, isolation, concurrent claims, misuse).
import { newId } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures, outcome } from './fixtures.js';

const newUser = (email = `${newId()}@example.com`.toLowerCase()) => ({
  id: newId('usr_'),
  email,
  passwordHash: 'x',
  firstName: null,
  createdAt: 1,
  suspendedAt: null,
});

/** A session row of `userId` (the claims below rotate it). */
const session = (userId: string) => ({
  id: newId('ses_'),
  userId,
  familyId: newId('fam_'),
  refreshHash: newId('h_'),
  createdAt: 1,
  expiresAt: Date.now() + 60_000,
  usedAt: null,
  revokedAt: null,
});

export const transactionCases: ConformanceCase[] = [
  c(['transaction'], 'commits every write of the body when it resolves, with its value', async (store) => {
    const u = newUser();
    const value = await store.transaction(async (tx) => {
      await tx.users.create(u);
      await tx.sessions.create(session(u.id));
      return (await tx.users.findById(u.id))?.email;
    });
    expect(value).toBe(u.email);
    expect(await store.users.findById(u.id)).toEqual(u);
  }),
  c(['transaction'], 'rolls every write back when the body throws, with its error', async (store) => {
    const u = newUser();
    const boom = new Error('the body fails');
    await expect(
      store.transaction(async (tx) => {
        await tx.users.create(u);
        await tx.sessions.create(session(u.id));
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await store.users.findById(u.id)).toBeNull();
    expect(await store.users.findByEmail(u.email)).toBeNull();
  }),
  c(['transaction'], 'a rolled-back write is never seen and holds nothing', async (store) => {
    const email = `${newId()}@example.com`.toLowerCase();
    const lost = newUser(email);
    const kept = newUser(email);
    // Started in this order: on SQLite both run in one group commit, the failing one first.
    const [failed, seen, written] = await Promise.allSettled([
      store.transaction(async (tx) => {
        await tx.users.create(lost);
        throw new Error('rolled back');
      }),
      store.transaction(async (tx) => tx.users.findById(lost.id)),
      store.transaction(async (tx) => tx.users.create(kept)),
    ]);
    expect(failed.status).toBe('rejected');
    expect(seen).toEqual({ status: 'fulfilled', value: null });
    expect(written.status).toBe('fulfilled');
    expect((await store.users.findByEmail(email))?.id).toBe(kept.id);
  }),
  c(
    ['transaction', 'users.findById'],
    'concurrent claims: a conditional write, and a decision on a row read for update, each win once',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const s = session(u.id);
      await store.sessions.create(s);
      const rotations = await Promise.all(
        Array.from({ length: 5 }, () =>
          store.transaction(async (tx) => tx.sessions.rotate(s.id, session(u.id), Date.now())),
        ),
      );
      expect(rotations.filter(Boolean)).toHaveLength(1);
      // Read, decide, write: the row read for update keeps a second body waiting until the first
      // committed, and it then decides on what the first wrote.
      const names = await Promise.all(
        ['Ada', 'Bo', 'Cy', 'Di', 'Ed'].map((name) =>
          store.transaction(async (tx) => {
            const row = await tx.users.findById(u.id, { forUpdate: true });
            if (row?.firstName !== null) return null;
            await tx.shares.setFirstName(u.id, name);
            return name;
          }),
        ),
      );
      const winners = names.filter((n) => n !== null);
      expect(winners).toHaveLength(1);
      expect((await store.users.findById(u.id))?.firstName).toBe(winners[0]);
    },
  ),
  c(
    ['transaction'],
    'misuse fails at once: the store called inside a body, a transaction inside one, a tx kept past its end',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const write = () => store.threads.append(f.message({ agentId: a.id, userId: u.id }), f.version());
      // Awaiting a plain write inside a body would wait for the body's own commit: refused instead.
      expect(await outcome(store.transaction(async () => write()))).toBe('OUTSIDE_TX');
      expect(await outcome(store.transaction(async () => store.users.findById(u.id)))).toBe('OUTSIDE_TX');
      expect(
        await outcome(
          store.transaction(async () => store.transaction(async (tx) => tx.users.findById(u.id))),
        ),
      ).toBe('OUTSIDE_TX');
      let kept: Parameters<Parameters<Store['transaction']>[0]>[0] | undefined;
      await store.transaction(async (tx) => {
        kept = tx;
      });
      expect(await outcome(kept!.users.findById(u.id))).toBe('TX_ENDED');
      // Nothing was written by the refused bodies, and the store goes on.
      expect(await store.threads.page({ agentId: a.id, userId: u.id, limit: 5 })).toEqual([]);
      await write();
      expect(await store.transaction(async (tx) => (await tx.users.findById(u.id))?.id)).toBe(u.id);
    },
  ),
  c(['transaction'], 'many transactions at once each commit their own writes', async (store) => {
    const users = Array.from({ length: 20 }, () => newUser());
    await Promise.all(users.map((u) => store.transaction(async (tx) => tx.users.create(u))));
    for (const u of users) expect((await store.users.findById(u.id))?.email).toBe(u.email);
  }),
];
