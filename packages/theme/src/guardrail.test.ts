import { describe, expect, it } from 'vitest';
import { contrastRatio } from './contrast.js';
import { ThemeError } from './errors.js';
import { ensureContrast, minContrast } from './guardrail.js';
import { hexToOklch } from './oklch.js';

describe('minContrast', () => {
  it('is the lowest ratio against the backgrounds', () => {
    expect(minContrast('#000000', ['#ffffff', '#777777'])).toBeCloseTo(
      contrastRatio('#000000', '#777777'),
      12,
    );
  });
});

describe('ensureContrast', () => {
  it('returns a colour that already passes unchanged', () => {
    expect(ensureContrast('#1d1e29', ['#ffffff', '#f9fafe'], 4.5)).toBe('#1d1e29');
  });
  it('darkens a pastel on white until it reaches 3:1, keeping its hue', () => {
    const out = ensureContrast('#c4b5fd', ['#ffffff'], 3);
    expect(contrastRatio(out, '#ffffff')).toBeGreaterThanOrEqual(3);
    expect(Math.abs(hexToOklch(out).h - hexToOklch('#c4b5fd').h)).toBeLessThan(6);
    expect(hexToOklch(out).l).toBeLessThan(hexToOklch('#c4b5fd').l);
  });
  it('stops close to the threshold instead of jumping to black', () => {
    const out = ensureContrast('#c4b5fd', ['#ffffff'], 3);
    expect(contrastRatio(out, '#ffffff')).toBeLessThan(3.15);
  });
  it('lightens a dark colour on a dark background', () => {
    const out = ensureContrast('#355c8c', ['#181612', '#221f1a'], 4.5);
    expect(minContrast(out, ['#181612', '#221f1a'])).toBeGreaterThanOrEqual(4.5);
    expect(hexToOklch(out).l).toBeGreaterThan(hexToOklch('#355c8c').l);
  });
  it('picks the nearer side when both would work', () => {
    // On mid grey #7c7c7c, 3:1 needs about #333333 or darker, or #dadada or lighter.
    const darker = ensureContrast('#6a6a6a', ['#7c7c7c'], 3);
    const lighter = ensureContrast('#909090', ['#7c7c7c'], 3);
    expect(hexToOklch(darker).l).toBeLessThan(hexToOklch('#6a6a6a').l);
    expect(hexToOklch(lighter).l).toBeGreaterThan(hexToOklch('#909090').l);
    expect(contrastRatio(darker, '#7c7c7c')).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(lighter, '#7c7c7c')).toBeGreaterThanOrEqual(3);
  });
  it('falls back to black or white when backgrounds straddle mid-grey', () => {
    const out = ensureContrast('#808080', ['#000000', '#ffffff'], 4.5);
    expect(['#000000', '#ffffff']).toContain(out);
  });
  it('refuses a ratio outside 1..21', () => {
    expect(() => ensureContrast('#808080', ['#ffffff'], 22)).toThrow(ThemeError);
    expect(() => ensureContrast('#808080', ['#ffffff'], Number.NaN)).toThrow(/between 1 and 21/);
  });
});
