// The back-off policy: the doubling sequences the former copies produced, and properties over any policy.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BackoffPolicy, backoffDelay } from './backoff.js';

const sequence = (policy: BackoffPolicy, n: number, random = 0) =>
  Array.from({ length: n }, (_, i) => backoffDelay(policy, i + 1, random));

describe('backoffDelay', () => {
  it('doubles from the first delay up to the cap', () => {
    expect(sequence({ baseMs: 500, maxMs: 10_000 }, 7)).toEqual([
      500, 1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
    expect(sequence({ baseMs: 1000, factor: 3, maxMs: 30_000 }, 5)).toEqual([
      1000, 3000, 9000, 27_000, 30_000,
    ]);
    expect(sequence({ baseMs: 0, maxMs: 10 }, 3)).toEqual([0, 0, 0]);
  });

  it('scales the capped delay by the jitter range the randomness picks', () => {
    const half = { baseMs: 500, maxMs: 30_000, jitter: [0.5, 1] } as const;
    expect(backoffDelay(half, 1, 0)).toBe(250);
    expect(backoffDelay(half, 1, 0.5)).toBe(375);
    expect(backoffDelay(half, 30, 0.999_999)).toBe(30_000);
    const fifthMore = { baseMs: 1000, maxMs: 600_000, jitter: [1, 1.2] } as const;
    expect(backoffDelay(fifthMore, 3, 0)).toBe(4000);
    expect(backoffDelay(fifthMore, 3, 0.99)).toBe(4792);
    expect(backoffDelay(fifthMore, 40, 0)).toBe(600_000);
  });

  it('stays at the cap however many retries (no overflow to Infinity or NaN)', () => {
    expect(backoffDelay({ baseMs: 1, maxMs: 5000 }, 5000)).toBe(5000);
    expect(backoffDelay({ baseMs: 0, maxMs: 5000 }, 5000)).toBe(0);
  });

  it('refuses a policy, a retry number or a random draw out of range', () => {
    expect(() => backoffDelay({ baseMs: -1, maxMs: 1 }, 1)).toThrow(RangeError);
    expect(() => backoffDelay({ baseMs: 1, factor: 0.5, maxMs: 1 }, 1)).toThrow(/factor >= 1/);
    expect(() => backoffDelay({ baseMs: 1, maxMs: Number.POSITIVE_INFINITY }, 1)).toThrow(/finite maxMs/);
    expect(() => backoffDelay({ baseMs: 1, maxMs: 9, jitter: [1, 0.5] }, 1)).toThrow(/jitter/);
    expect(() => backoffDelay({ baseMs: 1, maxMs: 9 }, 0)).toThrow(/retry counts from 1/);
    expect(() => backoffDelay({ baseMs: 1, maxMs: 9 }, 1.5)).toThrow(RangeError);
    expect(() => backoffDelay({ baseMs: 1, maxMs: 9 }, 1, 1)).toThrow(/random must be in \[0, 1\)/);
  });
});

const policies = fc
  .record({
    baseMs: fc.integer({ min: 0, max: 10_000 }),
    factor: fc.double({ min: 1, max: 4, noNaN: true }),
    maxMs: fc.integer({ min: 0, max: 3_600_000 }),
    low: fc.double({ min: 0, max: 1, noNaN: true }),
    spread: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ low, spread, ...p }): BackoffPolicy => ({ ...p, jitter: [low, low + spread] }));
const draws = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const retries = fc.integer({ min: 1, max: 2000 });

describe('backoffDelay: properties', () => {
  it('lies between the jitter bounds of the capped exponential delay', () => {
    fc.assert(
      fc.property(policies, retries, draws, (policy, retry, random) => {
        const [low, high] = policy.jitter!;
        const grown = policy.baseMs === 0 ? 0 : policy.baseMs * (policy.factor ?? 2) ** (retry - 1);
        const capped = Math.min(policy.maxMs, grown);
        const d = backoffDelay(policy, retry, random);
        expect(Number.isInteger(d)).toBe(true);
        expect(d).toBeGreaterThanOrEqual(Math.floor(capped * low));
        expect(d).toBeLessThanOrEqual(Math.ceil(capped * high));
      }),
    );
  });

  it('never shrinks from one retry to the next for the same draw, and never passes the jittered cap', () => {
    fc.assert(
      fc.property(policies, retries, draws, (policy, retry, random) => {
        const now = backoffDelay(policy, retry, random);
        expect(backoffDelay(policy, retry + 1, random)).toBeGreaterThanOrEqual(now);
        expect(now).toBeLessThanOrEqual(Math.ceil(policy.maxMs * policy.jitter![1]));
      }),
    );
  });

  it('without jitter is the plain doubling the copies wrote by hand: min(max, base × 2^(n-1))', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 600_000 }),
        retries,
        (b, m, n) => {
          const byHand = Math.min(m, b * 2 ** Math.min(n - 1, 1000));
          expect(backoffDelay({ baseMs: b, maxMs: m }, n)).toBe(Math.round(byHand));
        },
      ),
    );
  });
});
