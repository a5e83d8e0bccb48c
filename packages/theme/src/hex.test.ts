import { describe, expect, it } from 'vitest';
import { ThemeError } from './errors.js';
import { formatHex, isHex, parseHex } from './hex.js';

describe('isHex', () => {
  it('takes #RRGGBB in either case', () => {
    expect(isHex('#1b7fa6')).toBe(true);
    expect(isHex('#1B7FA6')).toBe(true);
  });
  it('refuses shorthand, alpha, names, missing # and non-strings', () => {
    for (const value of [
      '#fff',
      '#1b7fa6ff',
      'red',
      '1b7fa6',
      '#1b7fa',
      '#gggggg',
      ' #1b7fa6',
      0x1b7fa6,
      null,
    ]) {
      expect(isHex(value)).toBe(false);
    }
  });
});

describe('parseHex / formatHex', () => {
  it('reads channels', () => {
    expect(parseHex('#ff8000')).toEqual({ r: 255, g: 128, b: 0 });
  });
  it('round-trips and writes lowercase', () => {
    expect(formatHex(parseHex('#A1B2C3'))).toBe('#a1b2c3');
  });
  it('rounds and clamps channels', () => {
    expect(formatHex({ r: 255.4, g: 127.6, b: -3 })).toBe('#ff8000');
    expect(formatHex({ r: 300, g: 0.4, b: 15 })).toBe('#ff000f');
  });
  it('throws INVALID_HEX naming the value and the form', () => {
    expect(() => parseHex('#fff')).toThrow(ThemeError);
    // toThrow fails when nothing is thrown (a try/catch around the call would pass silently).
    expect(() => parseHex('teal')).toThrow(
      expect.objectContaining({
        name: 'ThemeError',
        code: 'INVALID_HEX',
        message: expect.stringMatching(/"teal".*#RRGGBB|#RRGGBB.*"teal"/s),
      }),
    );
  });
});
