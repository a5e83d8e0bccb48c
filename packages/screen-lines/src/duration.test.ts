// Tests of duration: behaviour through the public functions, with real inputs.
import { describe, expect, test } from 'vitest';
import { formatDuration, parseDuration } from './duration.js';

describe('durations', () => {
  test.each([
    ['90s', 90],
    ['5m', 300],
    ['1h30m', 5400],
    ['1h', 3600],
    ['1m30s', 90],
    ['2:30', 150],
    ['1:02:03', 3723],
    ['7', 420],
  ])('%s is %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  test.each(['', 'soon', '5x', 'm', '1.5m', '-5m'])('%s is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  test('canonical form reads back', () => {
    for (const seconds of [1, 59, 60, 90, 3600, 3723, 86_400]) {
      expect(parseDuration(formatDuration(seconds))).toBe(seconds);
    }
    expect(formatDuration(5400)).toBe('1h30m');
  });
});
