import { describe, expect, it } from 'vitest';
import { PRESETS } from './presets.js';
import { DEFAULT_STYLE, resolveLook } from './resolve-look.js';
import { seedAccent } from './seed-look.js';

describe('resolveLook', () => {
  it('resolves {} without a handle to the default preset', () => {
    expect(resolveLook({})).toEqual({
      preset: 'studio',
      accent: PRESETS.studio.accent,
      bg: undefined,
      radius: 'soft',
      font: 'system',
      weight: 'regular',
      motion: 'smooth',
      pace: 'steady',
      ease: 'gentle',
      enter: 'rise',
      pulse: 'soft',
      style: DEFAULT_STYLE,
    });
  });
  it('seeds {} from the handle: its pastel accent on the default preset', () => {
    const look = resolveLook({}, { handle: 'weather' });
    expect(look.preset).toBe('studio');
    expect(look.accent).toBe(seedAccent('weather'));
  });
  it('starts a handle named like a preset in that preset', () => {
    const look = resolveLook({}, { handle: 'terminal' });
    expect(look).toMatchObject({
      preset: 'terminal',
      font: 'mono',
      accent: PRESETS.terminal.accent,
      bg: '#0e1110',
    });
  });
  it('keeps the seeded accent under a look that sets only other keys', () => {
    expect(resolveLook({ radius: 'pill' }, { handle: 'weather' })).toMatchObject({
      radius: 'pill',
      accent: seedAccent('weather'),
    });
  });
  it('lets a named preset win over the handle seed, and other keys override the preset', () => {
    const look = resolveLook({ preset: 'paper', accent: '#aa3355', font: 'mono' }, { handle: 'terminal' });
    expect(look).toMatchObject({
      preset: 'paper',
      accent: '#aa3355',
      font: 'mono',
      bg: PRESETS.paper.bg,
      radius: 'square',
    });
  });
  it('expands motion into its parts, each overridable', () => {
    expect(resolveLook({ motion: 'brisk' })).toMatchObject({
      pace: 'quick',
      ease: 'snappy',
      enter: 'slide',
      pulse: 'off',
    });
    expect(resolveLook({ motion: 'brisk', ease: 'spring', pulse: 'glow' })).toMatchObject({
      pace: 'quick',
      ease: 'spring',
      enter: 'slide',
      pulse: 'glow',
    });
    expect(resolveLook({ enter: 'none' })).toMatchObject({ motion: 'smooth', enter: 'none', pace: 'steady' });
  });
  it('fills style defaults around the look’s own style', () => {
    expect(resolveLook({ style: { chart: 'bar' } }).style).toEqual({ ...DEFAULT_STYLE, chart: 'bar' });
  });
  it('cleans its input first', () => {
    expect(resolveLook({ preset: 'NEON', radius: 'Pill', junk: true }).radius).toBe('pill');
    expect(resolveLook('garbage').preset).toBe('studio');
  });
});
