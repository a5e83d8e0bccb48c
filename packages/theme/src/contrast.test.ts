import { describe, expect, it } from 'vitest';
import { contrastRatio, linearChannel, relativeLuminance } from './contrast.js';

describe('relativeLuminance', () => {
  it('is 0 for black and 1 for white', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 12);
  });
  it('weights green most and blue least (Rec. 709 coefficients)', () => {
    expect(relativeLuminance('#ff0000')).toBeCloseTo(0.2126, 4);
    expect(relativeLuminance('#00ff00')).toBeCloseTo(0.7152, 4);
    expect(relativeLuminance('#0000ff')).toBeCloseTo(0.0722, 4);
  });
  it('uses the linear segment for dark channels', () => {
    expect(linearChannel(10)).toBeCloseTo(10 / 255 / 12.92, 12);
    expect(linearChannel(11)).toBeCloseTo(((11 / 255 + 0.055) / 1.055) ** 2.4, 12);
  });
});

describe('contrastRatio', () => {
  it('is 21 for black on white and 1 for a colour on itself', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#5b5bd6', '#5b5bd6')).toBe(1);
  });
  it('matches the well-known grey thresholds on white', () => {
    // #767676 is the lightest grey that passes 4.5:1 on white; #777777 fails.
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
  it('does not depend on order', () => {
    expect(contrastRatio('#1b7fa6', '#fff5ef')).toBe(contrastRatio('#fff5ef', '#1b7fa6'));
  });
});
