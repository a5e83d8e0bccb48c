// Conformance cases: a person's answer written once per idempotency key (issue 45, ADR 0276), however it is sent.
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures, outcome } from './fixtures.js';

export const answerKeyCases: ConformanceCase[] = [
  c(
    ['threads.findPersonAnswer'],
    "a person's answer key is written once per person; other people, agent rows and rolled-back writes keep it free",
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const v = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const w = await f.agent(v.id, 'w');
      const ka = { agentId: a.id, userId: u.id };
      const kb = { agentId: b.id, userId: u.id };
      const person = (key: typeof ka, body: string, idemKey: string) =>
        store.threads.append({ ...f.message(key, 'person', body), idemKey }, f.version());
      const first = await person(ka, 'Soup', 'k1');
      expect(await store.threads.findPersonAnswer(u.id, 'k1')).toEqual(first);
      expect(await store.threads.findPersonAnswer(u.id, 'k2')).toBeNull();
      expect(await store.threads.findPersonAnswer(v.id, 'k1')).toBeNull();
      // Once per person, whatever the thread: the same key in another agent's thread is refused too.
      expect(await outcome(person(ka, 'Soup', 'k1'))).toBe('CONFLICT');
      expect(await outcome(person(kb, 'Salad', 'k1'))).toBe('CONFLICT');
      expect(await store.threads.countUnhandled(ka)).toBe(1);
      expect(await store.threads.countUnhandled(kb)).toBe(0);
      // Another person's key, and an agent row with the same key, are theirs.
      expect(await outcome(person({ agentId: w.id, userId: v.id }, 'Soup', 'k1'))).toBe('ok');
      expect(
        await outcome(store.threads.append({ ...f.message(ka, 'agent', 'hi'), idemKey: 'k1' }, f.version())),
      ).toBe('ok');
      // The key is taken in the write's own transaction: a transaction that fails later leaves it free.
      const failed = await outcome(
        store.transaction(async (tx) => {
          await tx.threads.append({ ...f.message(kb, 'person', 'Tea'), idemKey: 'k3' }, f.version());
          throw new Error('later step failed');
        }),
      );
      expect(failed).toBe('Error: later step failed');
      expect(await store.threads.findPersonAnswer(u.id, 'k3')).toBeNull();
      expect(await outcome(person(kb, 'Tea', 'k3'))).toBe('ok');
    },
  ),
  c(
    ['threads.findPersonAnswer'],
    'two writes of one answer key at once: exactly one row, the other CONFLICT',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      // Each in its own transaction, as two instances of the service would write them.
      const write = (body: string) =>
        outcome(
          store.transaction((tx) =>
            tx.threads.append({ ...f.message(key, 'person', body), idemKey: 'same' }, f.version()),
          ),
        );
      const results = await Promise.all([write('one'), write('two'), write('three')]);
      expect(results.filter((r) => r === 'ok')).toHaveLength(1);
      expect(results.filter((r) => r === 'CONFLICT')).toHaveLength(2);
      expect(await store.threads.countUnhandled(key)).toBe(1);
      const kept = await store.threads.findPersonAnswer(u.id, 'same');
      expect(['one', 'two', 'three']).toContain(kept?.body);
    },
  ),
];
