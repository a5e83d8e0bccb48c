import { describe, expect, it } from 'vitest';
import { ThemeError } from './errors.js';
import { mergeLook } from './merge-look.js';

const T9 = '2026-11-21T09:00:00.000Z';
const T10 = '2026-11-21T10:00:00.000Z';
const T11 = '2026-11-21T11:00:00.000Z';

describe('mergeLook: time and authorship', () => {
  it('never lets a line older than `at` override a newer pick', () => {
    const current = { accent: '#355c8c', at: T10, by: 'agent' };
    expect(mergeLook(current, { accent: '#e0674f', at: T9 })).toEqual(current);
    expect(mergeLook(current, { accent: '#e0674f' }, { at: T9 })).toEqual(current);
  });
  it('applies a newer agent line', () => {
    expect(mergeLook({ accent: '#355c8c', at: T10, by: 'agent' }, { accent: '#e0674f', at: T11 })).toEqual({
      accent: '#e0674f',
      at: T11,
      by: 'agent',
    });
  });
  it('holds a person’s pick against an older agent line and one of unknown age', () => {
    const pick = { preset: 'paper', at: T10, by: 'user' };
    expect(mergeLook(pick, { preset: 'candy', by: 'agent' }, { at: T9 })).toEqual(pick);
    expect(mergeLook(pick, { preset: 'candy', at: T10, by: 'agent' })).toEqual(pick);
    expect(mergeLook(pick, { preset: 'candy' })).toEqual(pick);
    expect(mergeLook({ preset: 'paper', by: 'user' }, { preset: 'candy', at: T11 })).toEqual({
      preset: 'paper',
      by: 'user',
    });
  });
  it('lets a newer agent line restyle after a person’s pick', () => {
    expect(mergeLook({ preset: 'paper', at: T10, by: 'user' }, { preset: 'candy' }, { at: T11 })).toEqual({
      preset: 'candy',
      at: T11,
      by: 'agent',
    });
  });
  it('lets a person re-pick over their own pick and over an agent line', () => {
    expect(mergeLook({ preset: 'paper', at: T10, by: 'user' }, { preset: 'ocean', by: 'user' }).preset).toBe(
      'ocean',
    );
    expect(
      mergeLook({ preset: 'candy', at: T10, by: 'agent' }, { preset: 'ink', by: 'user', at: T11 }),
    ).toEqual({
      preset: 'ink',
      at: T11,
      by: 'user',
    });
  });
  it('applies a line of unknown age over an agent look of unknown age', () => {
    expect(mergeLook({ accent: '#111111' }, { accent: '#222222' })).toEqual({
      accent: '#222222',
      by: 'agent',
    });
  });
  it('prefers the line’s own `at` over options.at, compared as instants', () => {
    const current = { accent: '#111111', at: '2026-11-21T10:30:00+01:00', by: 'agent' };
    expect(mergeLook(current, { accent: '#222222', at: '2026-11-21T09:45:00Z' }, { at: T9 }).accent).toBe(
      '#222222',
    );
  });
  it('throws INVALID_TIMESTAMP for a bad options.at', () => {
    expect(() => mergeLook({}, {}, { at: 'yesterday' })).toThrow(ThemeError);
    expect(() => mergeLook({}, {}, { at: '2026-11-21' })).toThrow(/ISO 8601/);
  });
});

describe('mergeLook: keys', () => {
  it('overrides key by key and keeps the rest', () => {
    expect(mergeLook({ accent: '#111111', font: 'serif' }, { font: 'mono', radius: 'pill' })).toEqual({
      accent: '#111111',
      radius: 'pill',
      font: 'mono',
      by: 'agent',
    });
  });
  it('merges style by key', () => {
    expect(mergeLook({ style: { chart: 'bar', screen: 'full' } }, { style: { chart: 'pie' } }).style).toEqual(
      {
        screen: 'full',
        chart: 'pie',
      },
    );
  });
  it('clears pace, ease, enter and pulse when a motion comes without them', () => {
    const current = { motion: 'calm', pace: 'quick', ease: 'spring', enter: 'pop', pulse: 'beat' };
    expect(mergeLook(current, { motion: 'brisk' })).toEqual({ motion: 'brisk', by: 'agent' });
  });
  it('keeps the parts a motion line sets itself', () => {
    const current = { motion: 'calm', pace: 'quick', ease: 'spring' };
    expect(mergeLook(current, { motion: 'brisk', ease: 'linear' })).toEqual({
      motion: 'brisk',
      ease: 'linear',
      by: 'agent',
    });
  });
  it('keeps motion parts when only a part changes', () => {
    expect(mergeLook({ motion: 'calm', pace: 'quick' }, { pulse: 'off' })).toEqual({
      motion: 'calm',
      pace: 'quick',
      pulse: 'off',
      by: 'agent',
    });
  });
  it('makes a new preset a whole recipe: old colours, shape, type and motion go, style stays', () => {
    const current = {
      preset: 'paper',
      accent: '#aa3355',
      font: 'mono',
      motion: 'lively',
      style: { chart: 'bar' },
    };
    expect(mergeLook(current, { preset: 'ocean', radius: 'pill' })).toEqual({
      preset: 'ocean',
      radius: 'pill',
      style: { chart: 'bar' },
      by: 'agent',
    });
  });
  it('cleans both sides and never returns junk', () => {
    expect(mergeLook('nonsense', { accent: '#ABCDEF', junk: 1, by: 'robot' })).toEqual({
      accent: '#abcdef',
      by: 'agent',
    });
    expect(mergeLook({ accent: '#abcdef', by: 'user' }, null)).toEqual({ accent: '#abcdef', by: 'user' });
  });
});
