import { describe, expect, it } from 'vitest';
import { ThemeError } from './errors.js';
import { hexToOklch } from './oklch.js';
import { AGENT_COLOR_HEX, AGENT_COLORS, seedAccent, seedColor, seedLook } from './seed-look.js';
import { PRESET_NAMES } from './vocabulary.js';

describe('seedAccent', () => {
  it('is pinned: the same colour for the same name on every run and platform', () => {
    expect(seedAccent('weather')).toBe('#eba2e0');
    expect(seedAccent('ada')).toBe('#ea9a9d');
    expect(seedAccent('coder')).toBe('#9df19e');
    expect(seedAccent('')).toBe('#9dcae7');
  });
  it('ignores case and surrounding spaces', () => {
    expect(seedAccent('  Weather ')).toBe(seedAccent('weather'));
  });
  it('gives different names different colours', () => {
    const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
    expect(new Set(names.map(seedAccent)).size).toBe(names.length);
  });
  it('is pastel: light and gently saturated', () => {
    for (const name of ['a', 'bb', 'ccc', 'weather', 'ada', 'coder', 'hermes', '日本']) {
      const { l, c } = hexToOklch(seedAccent(name));
      expect(l).toBeGreaterThan(0.72);
      expect(l).toBeLessThan(0.92);
      expect(c).toBeGreaterThan(0.04);
      expect(c).toBeLessThan(0.2);
    }
  });
  it('throws INVALID_HANDLE for a non-string', () => {
    expect(() => seedAccent(42 as unknown as string)).toThrow(ThemeError);
    expect(() => seedAccent(undefined as unknown as string)).toThrow(/must be a string/);
  });
});

describe('seedColor', () => {
  it('is one of lavender, mint, butter (never the legacy brand)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) seen.add(seedColor(`agent-${i}`));
    expect([...seen].sort()).toEqual(['butter', 'lavender', 'mint']);
  });
  it('is pinned for a few names and follows the accent hue', () => {
    expect(seedColor('coder')).toBe('mint');
    expect(seedColor('weather')).toBe('lavender');
    const butter = Array.from({ length: 50 }, (_, i) => `n${i}`).find((n) => seedColor(n) === 'butter')!;
    const hue = hexToOklch(seedAccent(butter)).h;
    expect(hue).toBeGreaterThan(25);
    expect(hue).toBeLessThan(130);
  });
});

describe('AGENT_COLORS', () => {
  it('names doc2 colours, each with a swatch', () => {
    expect([...AGENT_COLORS]).toEqual(['lavender', 'mint', 'butter', 'brand']);
    for (const color of AGENT_COLORS) expect(AGENT_COLOR_HEX[color]).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('seedLook', () => {
  it('starts a handle equal to a preset name in that preset', () => {
    for (const name of PRESET_NAMES) expect(seedLook(name)).toEqual({ preset: name });
    expect(seedLook('Paper')).toEqual({ preset: 'paper' });
  });
  it('gives any other handle its pastel accent', () => {
    expect(seedLook('weather')).toEqual({ accent: '#eba2e0' });
  });
});
