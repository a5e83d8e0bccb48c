import { seededRandom } from '@screen-service/registry/kernel';
import { describe, expect, it } from 'vitest';
import { newPageVersion } from './page-version.js';

describe('newPageVersion', () => {
  it('draws whole numbers below 2^53 that do not repeat', () => {
    const random = seededRandom(7);
    const seen = new Set<number>();
    for (let i = 0; i < 10_000; i++) {
      const v = newPageVersion(random);
      expect(Number.isSafeInteger(v) && v >= 0).toBe(true);
      seen.add(v);
    }
    expect(seen.size).toBe(10_000);
    // All 53 bits are used: the largest of 10,000 draws is near the top of the range.
    expect(Math.max(...seen)).toBeGreaterThan(2 ** 52);
  });
});
