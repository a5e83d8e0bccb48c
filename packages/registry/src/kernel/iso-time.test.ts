import { describe, expect, it } from 'vitest';
import { isoTime, isoTimeOrNull } from './iso-time.js';

const same = (ms: number) => expect(isoTime(ms), `instant ${ms}`).toBe(new Date(ms).toISOString());

describe('isoTime', () => {
  it('matches toISOString at boundaries of seconds, minutes, hours, days, months, years and leap days', () => {
    const edges = [
      0,
      1,
      999,
      1000,
      59_999,
      60_000,
      3_599_999,
      3_600_000,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 28, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29),
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 2, 1),
      Date.UTC(1900 + 200, 1, 28, 23, 59, 59, 999),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999),
      Date.UTC(2025, 0, 1),
      Date.UTC(2026, 10, 27, 14, 20, 0, 5),
      Date.UTC(2038, 0, 19, 3, 14, 8),
      Date.UTC(9999, 11, 31, 23, 59, 59, 998),
      253_402_300_799_999,
    ];
    for (const t of edges) {
      same(t);
      same(t + 1);
      if (t > 0) same(t - 1);
    }
  });

  it('matches toISOString for many instants in and out of order (the caches must never leak)', () => {
    let seed = 42;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let i = 0; i < 20_000; i++) same(Math.floor(next() * 253_402_300_800_000));
    // A page's rows: increasing, often within one second or one day.
    let t = Date.UTC(2026, 10, 27, 23, 59, 58, 990);
    for (let i = 0; i < 5_000; i++) {
      same(t);
      t += Math.floor(next() * 700);
    }
    // Going back to an earlier second and day after the caches moved on.
    same(Date.UTC(2026, 10, 27, 23, 59, 58, 991));
    same(Date.UTC(1999, 0, 1, 0, 0, 0, 1));
    same(Date.UTC(2026, 10, 27, 23, 59, 58, 992));
  });

  it('hands instants outside 1970..9999 and fractions to toISOString, with its RangeError for invalid ones', () => {
    for (const t of [-1, -86_400_001, Date.UTC(-1, 0, 1), 253_402_300_800_000, 8.64e15, 1.5, 1000.999])
      same(t);
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });

  it('isoTimeOrNull keeps null', () => {
    expect(isoTimeOrNull(null)).toBeNull();
    expect(isoTimeOrNull(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});
