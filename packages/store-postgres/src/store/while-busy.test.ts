// whileBusy: what goes together, what waits, and that every call settles with its own outcome.
import { describe, expect, it } from 'vitest';
import { type Outcome, whileBusy } from './while-busy.js';

/** A whileBusy over numbers whose statements the test releases by hand, recording what each carried. */
function harness(max = 64) {
  const sent: number[][] = [];
  const open: (() => void)[] = [];
  const statement = <R>(items: number[], answer: () => R) =>
    new Promise<R>((resolve) => {
      sent.push(items);
      open.push(() => resolve(answer()));
    });
  const call = whileBusy<number, string>({
    max,
    one: (n) => statement([n], () => `one ${n}`),
    many: (ns) =>
      statement(ns, () =>
        ns.map(
          (n): Outcome<string> =>
            n < 0 ? { ok: false, error: new Error(`bad ${n}`) } : { ok: true, value: `many ${n}` },
        ),
      ),
  });
  /** Waits until `count` statements were sent. */
  const sentCount = async (count: number) => {
    while (sent.length < count) await new Promise((r) => setImmediate(r));
  };
  const release = () => open.shift()!();
  return { call, sent, sentCount, release };
}

describe('whileBusy', () => {
  it('sends the calls of one turn together, and a call alone as one', async () => {
    const h = harness();
    const together = [h.call('k', 1), h.call('k', 2), h.call('k', 3)];
    await h.sentCount(1);
    h.release();
    expect(await Promise.all(together)).toEqual(['many 1', 'many 2', 'many 3']);
    const alone = h.call('k', 4);
    await h.sentCount(2);
    h.release();
    expect(await alone).toBe('one 4');
    expect(h.sent).toEqual([[1, 2, 3], [4]]);
  });

  it('holds what comes while a statement of its key is on its way, and sends it together next', async () => {
    const h = harness();
    const first = h.call('k', 1);
    await h.sentCount(1);
    // Another key is not held by this one.
    const other = h.call('other', 9);
    const later = [h.call('k', 2), h.call('k', 3)];
    await h.sentCount(2);
    expect(h.sent).toEqual([[1], [9]]);
    h.release();
    expect(await first).toBe('one 1');
    await h.sentCount(3);
    expect(h.sent[2]).toEqual([2, 3]);
    h.release();
    expect(await other).toBe('one 9');
    h.release();
    expect(await Promise.all(later)).toEqual(['many 2', 'many 3']);
  });

  it('sends at most max calls in one statement', async () => {
    const h = harness(2);
    const calls = [1, 2, 3, 4, 5].map((n) => h.call('k', n));
    for (let i = 1; i <= 3; i++) {
      await h.sentCount(i);
      h.release();
    }
    expect(await Promise.all(calls)).toEqual(['many 1', 'many 2', 'many 3', 'many 4', 'one 5']);
    expect(h.sent).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('gives each call its own outcome, rejects all of a statement that failed, and keeps the key usable', async () => {
    const h = harness();
    const mixed = [h.call('k', 1), h.call('k', -2), h.call('k', 3)].map((p) =>
      p.catch((e: Error) => e.message),
    );
    await h.sentCount(1);
    h.release();
    expect(await Promise.all(mixed)).toEqual(['many 1', 'bad -2', 'many 3']);

    const failing = whileBusy<number, string>({
      max: 8,
      one: async (n) => {
        if (n === 0) throw new Error('down');
        return `one ${n}`;
      },
      many: async () => {
        throw new Error('statement failed');
      },
    });
    const outcomes = await Promise.allSettled([failing('k', 1), failing('k', 2)]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : o.value))).toEqual([
      'statement failed',
      'statement failed',
    ]);
    await expect(failing('k', 0)).rejects.toThrow('down');
    expect(await failing('k', 5)).toBe('one 5');
  });
});
