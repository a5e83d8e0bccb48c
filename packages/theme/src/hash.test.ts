import { describe, expect, it } from 'vitest';
import { hashString } from './hash.js';

describe('hashString', () => {
  it('is pinned: the same numbers on every run and platform', () => {
    expect(hashString('')).toBe(2872998923);
    expect(hashString('a')).toBe(444641715);
    expect(hashString('weather')).toBe(2457918669);
    expect(hashString('日本')).toBe(4026831135);
  });
  it('is an unsigned 32-bit integer and spreads similar names', () => {
    const values = ['agent1', 'agent2', 'agent3', 'agent4'].map(hashString);
    for (const v of values) expect(Number.isInteger(v) && v >= 0 && v < 2 ** 32).toBe(true);
    expect(new Set(values.map((v) => v % 360)).size).toBe(4);
  });
});
