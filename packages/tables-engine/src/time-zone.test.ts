import { describe, expect, it } from 'vitest';
import { assertTimeZone, resolveNow, resolveToday } from './time-zone.js';

describe('time zones', () => {
  it('resolves today and now on the wall clock of the zone', () => {
    const now = new Date('2026-01-01T02:30:00Z');
    expect(resolveToday(now, 'UTC')).toBe('2026-01-01');
    expect(resolveToday(now, 'America/Los_Angeles')).toBe('2025-12-31');
    expect(resolveToday(now, 'America/Los_Angeles', 1)).toBe('2026-01-01');
    expect(resolveToday(now, 'Pacific/Kiritimati', -365)).toBe('2025-01-01');
    expect(resolveNow(now, 'Asia/Kolkata')).toBe('2026-01-01T08:00');
    expect(resolveNow(new Date('2026-03-29T01:30:00Z'), 'Europe/Berlin')).toBe('2026-03-29T03:30');
  });

  it('refuses a zone Intl does not know', () => {
    expect(() => assertTimeZone('Mars/Olympus')).toThrow(
      expect.objectContaining({ code: 'INVALID_TIME_ZONE' }),
    );
  });
});
