import { describe, expect, it } from 'vitest';
import { dateBucket, isDay, isDayTime } from './dates.js';

describe('dates', () => {
  it('validates real days and times', () => {
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDayTime('2026-02-28T23:59')).toBe(true);
    expect(isDayTime('2026-02-28 23:59')).toBe(false);
  });

  it('buckets by day, Monday week and month across a year boundary', () => {
    expect(['2025-12-29', '2026-01-01', '2026-01-04T23:59'].map((d) => dateBucket(d, 'week'))).toEqual([
      '2025-12-29',
      '2025-12-29',
      '2025-12-29',
    ]);
    expect(dateBucket('2026-01-05', 'week')).toBe('2026-01-05');
    expect(dateBucket('2026-01-04T10:00', 'day')).toBe('2026-01-04');
    expect(dateBucket('2026-01-04T10:00', 'month')).toBe('2026-01');
  });
});
