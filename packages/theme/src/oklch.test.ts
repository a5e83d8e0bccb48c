import { describe, expect, it } from 'vitest';
import { hexToOklch, oklchToHex } from './oklch.js';

describe('OKLCH conversion', () => {
  it('puts black at L 0 and white at L 1 with no chroma', () => {
    expect(hexToOklch('#000000').l).toBeCloseTo(0, 6);
    const white = hexToOklch('#ffffff');
    expect(white.l).toBeCloseTo(1, 4);
    expect(white.c).toBeLessThan(1e-3);
  });
  it('round-trips sRGB colours exactly', () => {
    for (const hex of [
      '#5b5bd6',
      '#faf6ec',
      '#0e1110',
      '#fde68a',
      '#ff0000',
      '#00ff00',
      '#0000ff',
      '#808080',
    ]) {
      expect(oklchToHex(hexToOklch(hex))).toBe(hex);
    }
  });
  it('knows the hue of primaries', () => {
    expect(hexToOklch('#ff0000').h).toBeCloseTo(29.2, 0);
    expect(hexToOklch('#0000ff').h).toBeCloseTo(264.1, 0);
  });
  it('fits an out-of-gamut colour by lowering chroma and keeping lightness and hue', () => {
    const hex = oklchToHex({ l: 0.9, c: 0.4, h: 264 });
    const back = hexToOklch(hex);
    expect(back.l).toBeCloseTo(0.9, 2);
    expect(back.c).toBeLessThan(0.4);
    expect(Math.abs(back.h - 264)).toBeLessThan(4);
  });
  it('clamps lightness outside 0..1', () => {
    expect(oklchToHex({ l: 1.4, c: 0, h: 0 })).toBe('#ffffff');
    expect(oklchToHex({ l: -1, c: 0.1, h: 120 })).toBe('#000000');
  });
});
