// Conformance cases: screens' deadlines (issue 40, ADR 0260): what is due, steps and settling run once.
import type { Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

/** Writes screen `screenId` (no deadline) into the thread `key`. */
function screenRow(store: Store, f: ReturnType<typeof fixtures>) {
  return (key: { agentId: string; userId: string }, screenId: string) =>
    store.threads.appendScreen(
      { ...f.message(key), kind: 'screen', body: 'choose@lunch "Lunch?" Soup|Salad', screenId },
      { id: screenId, lines: 'choose@lunch "Lunch?" Soup|Salad', ops: [], taps: [] },
      f.version(),
    );
}

/** A screen `scr_<name>` in a fresh thread, with a deadline due at `dueAt` (next step at `nextAt`). */
async function screenWithDeadline(store: Store, name: string, dueAt: number, nextAt = dueAt) {
  const f = fixtures(store);
  const user = await f.user();
  const agent = await f.agent(user.id, name);
  const key = { agentId: agent.id, userId: user.id };
  const screenId = `scr_${name}`;
  await store.transaction(async (tx) => {
    await tx.threads.appendScreen(
      { ...f.message(key), kind: 'screen', body: 'choose@lunch "Lunch?" Soup|Salad', screenId },
      { id: screenId, lines: 'choose@lunch "Lunch?" Soup|Salad', ops: [], taps: [] },
      f.version(),
    );
    await tx.deadlines.create({
      screenId,
      ...key,
      dueAt,
      nextAt,
      plan: { defaults: { lunch: 'Soup' } },
      createdAt: 1,
    });
  });
  return { f: { ...f, screenRow: screenRow(store, f) }, key, screenId };
}

export const deadlineCases: ConformanceCase[] = [
  c(
    ['deadlines.create', 'deadlines.get', 'deadlines.due', 'deadlines.nextDueAt'],
    'a deadline is due from its next step on, earliest first, and reads back as written',
    async (store) => {
      expect(await store.deadlines.nextDueAt()).toBeNull();
      const late = await screenWithDeadline(store, 'late', 900);
      const early = await screenWithDeadline(store, 'early', 800, 400);
      expect(await store.deadlines.get(early.screenId)).toEqual({
        screenId: early.screenId,
        ...early.key,
        dueAt: 800,
        nextAt: 400,
        step: 0,
        plan: { defaults: { lunch: 'Soup' } },
        createdAt: 1,
        settledAt: null,
        outcome: null,
      });
      expect(await store.deadlines.get('scr_none')).toBeNull();
      expect(await store.deadlines.nextDueAt()).toBe(400);
      expect(await store.deadlines.due(399, 10)).toEqual([]);
      expect((await store.deadlines.due(900, 10)).map((d) => d.screenId)).toEqual([
        early.screenId,
        late.screenId,
      ]);
      expect((await store.deadlines.due(900, 1)).map((d) => d.screenId)).toEqual([early.screenId]);
    },
  ),
  c(
    ['deadlines.advance', 'deadlines.settle', 'transaction'],
    'a step and the settling each happen once: a second claim of the same step finds nothing to change',
    async (store) => {
      const { screenId } = await screenWithDeadline(store, 'ladder', 800, 400);
      expect(await store.deadlines.advance(screenId, 0, 800)).toBe(true);
      expect(await store.deadlines.advance(screenId, 0, 800)).toBe(false);
      expect(await store.deadlines.get(screenId)).toMatchObject({ step: 1, nextAt: 800 });
      const [a, b] = await Promise.all([
        store.transaction((tx) => tx.deadlines.settle(screenId, 801, 'default')),
        store.transaction((tx) => tx.deadlines.settle(screenId, 802, 'answered')),
      ]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      const settled = await store.deadlines.get(screenId);
      expect(settled?.outcome).toBe(a ? 'default' : 'answered');
      expect(await store.deadlines.advance(screenId, 1, 900)).toBe(false);
      expect(await store.deadlines.due(10_000, 10)).toEqual([]);
      expect(await store.deadlines.nextDueAt()).toBeNull();
    },
  ),
  c(
    ['deadlines.withdraw'],
    'a withdraw settles a pending or answered deadline, writes a settled row for a screen without one, once',
    async (store) => {
      const pending = await screenWithDeadline(store, 'pend', 800, 400);
      const w = (screenId: string, at: number) => store.deadlines.withdraw({ screenId, ...pending.key, at });
      expect(await w(pending.screenId, 300)).toBe(true);
      expect(await store.deadlines.get(pending.screenId)).toMatchObject({
        outcome: 'withdrawn',
        settledAt: 300,
        dueAt: 800,
      });
      // Withdrawn once: a second withdraw changes nothing, and the sweeper no longer sees it.
      expect(await w(pending.screenId, 301)).toBe(false);
      expect(await store.deadlines.due(10_000, 10)).toEqual([]);
      const answered = await screenWithDeadline(store, 'ans', 800);
      await store.deadlines.settle(answered.screenId, 200, 'answered');
      expect(await store.deadlines.withdraw({ screenId: answered.screenId, ...answered.key, at: 310 })).toBe(
        true,
      );
      const decided = await screenWithDeadline(store, 'dec', 800);
      await store.deadlines.settle(decided.screenId, 800, 'default');
      expect(await store.deadlines.withdraw({ screenId: decided.screenId, ...decided.key, at: 900 })).toBe(
        false,
      );
      expect((await store.deadlines.get(decided.screenId))?.outcome).toBe('default');
      // A screen shown without a deadline: its row is settled at once.
      await pending.f.screenRow(pending.key, 'scr_plain');
      expect(await w('scr_plain', 320)).toBe(true);
      expect(await store.deadlines.get('scr_plain')).toMatchObject({
        ...pending.key,
        settledAt: 320,
        outcome: 'withdrawn',
      });
      expect(await w('scr_plain', 321)).toBe(false);
      expect(await store.deadlines.nextDueAt()).toBeNull();
    },
  ),
  c(
    ['deadlines.addOffer', 'deadlines.offersOf', 'threads.deleteThread'],
    "an ask's offers read back oldest first, and go with the offered screen's thread",
    async (store) => {
      const ask = await screenWithDeadline(store, 'ask', 800);
      const holder = await ask.f.user();
      const key = { agentId: ask.key.agentId, userId: holder.id };
      await ask.f.screenRow(key, 'scr_offer_b');
      await ask.f.screenRow(key, 'scr_offer_a');
      const offer = (screenId: string, createdAt: number) =>
        store.deadlines.addOffer({ screenId, originId: ask.screenId, ...key, createdAt });
      await offer('scr_offer_b', 20);
      await offer('scr_offer_a', 10);
      expect(await store.deadlines.offersOf(ask.screenId)).toEqual([
        { screenId: 'scr_offer_a', originId: ask.screenId, ...key, createdAt: 10 },
        { screenId: 'scr_offer_b', originId: ask.screenId, ...key, createdAt: 20 },
      ]);
      expect(await store.deadlines.offersOf('scr_offer_a')).toEqual([]);
      await store.threads.deleteThread(key);
      expect(await store.deadlines.offersOf(ask.screenId)).toEqual([]);
    },
  ),
  c(['threads.deleteThread'], 'a deadline goes with its thread', async (store) => {
    const { key, screenId } = await screenWithDeadline(store, 'gone', 800);
    await store.threads.deleteThread(key);
    expect(await store.deadlines.get(screenId)).toBeNull();
  }),
];
