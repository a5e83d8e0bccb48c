import { describe, expect, it } from 'vitest';
import { createRecorder, quantile, summarize } from './stats.js';

describe('quantile', () => {
  it('uses the nearest rank', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(v, 0.5)).toBe(50);
    expect(quantile(v, 0.99)).toBe(99);
    expect(quantile(v, 1)).toBe(100);
    expect(quantile([], 0.5)).toBe(0);
  });
});

describe('summarize', () => {
  it('merges drivers, counts per second and errors by kind', () => {
    const a = createRecorder();
    const b = createRecorder();
    for (const ms of [1, 2, 3]) a.ok('show', ms);
    b.ok('show', 10);
    b.fail('show', 'http_429');
    b.fail('show', 'http_429');
    a.fail('tap', 'timeout');
    expect(summarize([a.samples(), b.samples()], 2)).toEqual([
      { step: 'show', count: 4, perSecond: 2, p50: 2, p99: 10, max: 10, errors: { http_429: 2 } },
      { step: 'tap', count: 0, perSecond: 0, p50: 0, p99: 0, max: 0, errors: { timeout: 1 } },
    ]);
  });
});
