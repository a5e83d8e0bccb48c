// Conformance cases: relay tables' records (reads, hand-overs, unheld tables) and their move and drop with
// the table itself (the engine's own store has a suite of its own).
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

export const relayCases: ConformanceCase[] = [
  c(
    [
      'relay.markRead',
      'relay.listMeta',
      'relay.addHandover',
      'relay.takeHandover',
      'relay.setReadsInRow',
      'relay.readsInRow',
    ],
    'read marks per table, hand-over parts taken once (even by racing takers), reads in a row',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      await store.relay.markRead(u.id, a.id, ['A', 'B'], 5);
      await store.relay.markRead(u.id, a.id, ['A'], 6);
      await store.relay.markRead(u.id, a.id, [], 7);
      expect(
        (await store.relay.listMeta(u.id)).map((m) => [m.name, m.holder, m.lastReadAt, m.unheldAt]),
      ).toEqual([
        ['A', a.id, 6, null],
        ['B', a.id, 5, null],
      ]);
      expect(await store.relay.takeHandover(a.id)).toBe('');
      await store.relay.addHandover(a.id, u.id, 'one');
      await store.relay.addHandover(a.id, u.id, 'two');
      const taken = await Promise.all([store.relay.takeHandover(a.id), store.relay.takeHandover(a.id)]);
      expect(taken.sort()).toEqual(['', 'one two']);
      expect(await store.relay.readsInRow(a.id)).toBe(0);
      await store.relay.setReadsInRow(a.id, u.id, 3);
      expect(await store.relay.readsInRow(a.id)).toBe(3);
      await store.relay.setReadsInRow(a.id, u.id, 0);
      expect(await store.relay.readsInRow(a.id)).toBe(0);
    },
  ),
  c(
    ['relay.move', 'relay.drop', 'relay.listUnheldBefore'],
    'a table moves with its record (not onto a taken name); unheld ones are listed by age; drop takes both',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const ref = (holder: string, name: string) => ({ owner: u.id, holder, name });
      const key = (holder: string, name: string) => ({ userId: u.id, holder, name });
      for (const name of ['W', 'X']) {
        await store.relay.tables.defineTable(ref(a.id, name), [{ name: 'N', type: 'number' }]);
        await store.relay.tables.insertRow(ref(a.id, name), undefined, { N: 1 });
      }
      await store.relay.markRead(u.id, a.id, ['W'], 4);
      await store.relay.tables.defineTable(ref(b.id, 'X'), [{ name: 'N', type: 'number' }]);
      // The name is taken at the new holder: nothing moves.
      expect(await store.relay.move(key(a.id, 'X'), { holder: b.id, name: 'X' }, null)).toBe(false);
      expect(await store.relay.move(key(a.id, 'nope'), { holder: b.id, name: 'Y' }, null)).toBe(false);
      expect(await store.relay.move(key(a.id, 'W'), { holder: `unheld:${a.id}`, name: 'W' }, 10)).toBe(true);
      expect(await store.relay.move(key(a.id, 'X'), { holder: `unheld:${a.id}`, name: 'X' }, 20)).toBe(true);
      expect((await store.relay.tables.exportTable(ref(`unheld:${a.id}`, 'W')))?.rows).toHaveLength(1);
      const meta = await store.relay.listMeta(u.id);
      expect(meta.find((m) => m.name === 'W' && m.holder === `unheld:${a.id}`)).toMatchObject({
        lastReadAt: 4,
        unheldAt: 10,
      });
      expect(await store.relay.listUnheldBefore(15)).toEqual([key(`unheld:${a.id}`, 'W')]);
      expect(await store.relay.listUnheldBefore(25)).toEqual([
        key(`unheld:${a.id}`, 'W'),
        key(`unheld:${a.id}`, 'X'),
      ]);
      expect(await store.relay.drop(key(`unheld:${a.id}`, 'W'))).toBe(true);
      expect(await store.relay.drop(key(`unheld:${a.id}`, 'W'))).toBe(false);
      expect(await store.relay.tables.getTable(ref(`unheld:${a.id}`, 'W'))).toBeUndefined();
      expect(await store.relay.listUnheldBefore(25)).toEqual([key(`unheld:${a.id}`, 'X')]);
    },
  ),
];
