import { describe, expect, it } from 'vitest';
import { normalizeTimestamp, parseTimestamp } from './timestamp.js';

describe('parseTimestamp', () => {
  it('reads UTC and offsets', () => {
    expect(parseTimestamp('2026-11-21T22:15:00Z')).toBe(Date.UTC(2026, 10, 21, 22, 15));
    expect(parseTimestamp('2026-11-21T23:15:00+01:00')).toBe(Date.UTC(2026, 10, 21, 22, 15));
    expect(parseTimestamp('2026-11-21T17:15-0500')).toBe(Date.UTC(2026, 10, 21, 22, 15));
    expect(parseTimestamp('2026-11-21T22:15:00.123456Z')).toBe(Date.UTC(2026, 10, 21, 22, 15, 0, 123));
  });
  it('refuses dates without a time or a zone, impossible dates and non-strings', () => {
    for (const text of [
      '2026-11-21',
      '2026-11-21T22:15:00',
      '2026-02-30T00:00Z',
      '2026-13-01T00:00Z',
      '2026-11-21T24:00Z',
      '2026-11-21T22:60Z',
      'yesterday',
      '',
      42,
      null,
    ]) {
      expect(parseTimestamp(text)).toBeNull();
    }
  });
  it('handles years 0000-0099 literally (no 19xx mapping) and leap days', () => {
    expect(normalizeTimestamp('0042-01-01T00:00Z')).toBe('0042-01-01T00:00:00.000Z');
    expect(parseTimestamp('2024-02-29T12:00Z')).not.toBeNull();
    expect(parseTimestamp('2025-02-29T12:00Z')).toBeNull();
  });
  it('refuses a time that an offset pushes outside years 0000-9999', () => {
    expect(parseTimestamp('9999-12-31T23:00-05:00')).toBeNull();
  });
});

describe('normalizeTimestamp', () => {
  it('writes UTC with milliseconds', () => {
    expect(normalizeTimestamp('2026-11-21T23:15+01:00')).toBe('2026-11-21T22:15:00.000Z');
  });
  it('is null for anything else', () => {
    expect(normalizeTimestamp('soon')).toBeNull();
  });
});
