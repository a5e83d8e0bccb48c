// Conformance cases: screens' deadlines (issue 40, ADR 0260): what is due, steps and settling run once.
import type { Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

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
  return { f, key, screenId };
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
  c(['threads.deleteThread'], 'a deadline goes with its thread', async (store) => {
    const { key, screenId } = await screenWithDeadline(store, 'gone', 800);
    await store.threads.deleteThread(key);
    expect(await store.deadlines.get(screenId)).toBeNull();
  }),
];
