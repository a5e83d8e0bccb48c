import { describe, expect, it } from 'vitest';
import { cleanLook, isPlainObject, jsonByteLength, LOOK_KEYS, LOOK_MAX_BYTES } from './clean-look.js';
import { LOOK_WORDS, STYLE_WORDS } from './vocabulary.js';

describe('cleanLook', () => {
  it('keeps known keys with known words', () => {
    const look = {
      preset: 'ocean',
      accent: '#1b7fa6',
      bg: '#eef6f9',
      radius: 'round',
      font: 'serif',
      weight: 'medium',
      motion: 'calm',
      pace: 'quick',
      ease: 'spring',
      enter: 'pop',
      pulse: 'glow',
      style: { screen: 'full', gallery: 'grid', chart: 'donut', buttons: 'stack' },
      at: '2026-11-21T22:15:00.000Z',
      by: 'user',
    };
    expect(cleanLook(look)).toEqual(look);
  });

  it('drops unknown keys, unknown words and wrong types silently', () => {
    expect(
      cleanLook({
        preset: 'neon',
        radius: 'huge',
        font: 3,
        weight: ['bold'],
        colour: '#ffffff',
        by: 'admin',
        extra: {},
      }),
    ).toEqual({});
  });

  it('takes words in any case and with spaces, and writes them lowercase', () => {
    expect(cleanLook({ preset: ' Paper ', motion: 'LIVELY', style: { chart: 'Bar' } })).toEqual({
      preset: 'paper',
      motion: 'lively',
      style: { chart: 'bar' },
    });
  });

  it('keeps only #RRGGBB colours, written lowercase', () => {
    expect(cleanLook({ accent: '#1B7FA6', bg: ' #FAF6EC ' })).toEqual({ accent: '#1b7fa6', bg: '#faf6ec' });
    for (const bad of ['#fff', 'red', 'rgb(0,0,0)', '#1b7fa6cc', 0xffffff]) {
      expect(cleanLook({ accent: bad, bg: bad })).toEqual({});
    }
  });

  it('keeps only known style keys and words, and drops an empty or non-object style', () => {
    expect(cleanLook({ style: { screen: 'chat', gallery: 'carousel', size: 'xl' } })).toEqual({
      style: { screen: 'chat' },
    });
    expect(cleanLook({ style: { gallery: 'carousel' } })).toEqual({});
    expect(cleanLook({ style: 'full' })).toEqual({});
    expect(cleanLook({ style: ['chat'] })).toEqual({});
  });

  it('does not let a word from one key pass in another', () => {
    expect(cleanLook({ radius: 'serif', font: 'round', pace: 'fade', style: { buttons: 'grid' } })).toEqual(
      {},
    );
  });

  it('writes `at` as UTC ISO 8601 and drops anything that is not a zoned date-time', () => {
    expect(cleanLook({ at: '2026-11-21T23:15:00+01:00' })).toEqual({ at: '2026-11-21T22:15:00.000Z' });
    expect(cleanLook({ at: '2026-11-21' })).toEqual({});
    expect(cleanLook({ at: 1795295700000 })).toEqual({});
  });

  it('cleans anything that is not an object to {}', () => {
    for (const input of [null, undefined, 'ocean', 42, true, ['preset', 'ocean']])
      expect(cleanLook(input)).toEqual({});
  });

  it('reads only own properties (no prototype keys)', () => {
    const proto = { preset: 'ocean' };
    expect(cleanLook(Object.create(proto))).toEqual({});
    expect(cleanLook(JSON.parse('{"__proto__": {"preset": "ocean"}, "font": "mono"}'))).toEqual({
      font: 'mono',
    });
  });

  it('writes keys in one order, so equal looks serialize identically', () => {
    const a = cleanLook({ by: 'agent', accent: '#000000', preset: 'ink' });
    expect(Object.keys(a)).toEqual(['preset', 'accent', 'by']);
    expect(JSON.stringify(a)).toBe(
      JSON.stringify(cleanLook({ preset: 'ink', by: 'agent', accent: '#000000' })),
    );
  });

  it('keeps a motion with none of its parts as just the motion', () => {
    expect(cleanLook({ motion: 'still' })).toEqual({ motion: 'still' });
  });

  it('is idempotent', () => {
    const once = cleanLook({ preset: 'Candy', accent: '#ABCDEF', at: '2026-01-01T00:00+02:00', junk: 1 });
    expect(cleanLook(once)).toEqual(once);
  });

  it('stays under 2 KB even with every key at its longest value', () => {
    const longest = (words: readonly string[]) => words.reduce((a, b) => (b.length > a.length ? b : a));
    const look: Record<string, unknown> = {
      accent: '#ffffff',
      bg: '#ffffff',
      at: '2026-11-21T22:15:00.000Z',
      style: Object.fromEntries(Object.entries(STYLE_WORDS).map(([k, w]) => [k, longest(w)])),
    };
    for (const [key, words] of Object.entries(LOOK_WORDS)) look[key] = longest(words);
    const clean = cleanLook(look);
    expect(Object.keys(clean)).toEqual([...LOOK_KEYS]);
    expect(jsonByteLength(clean)).toBeLessThanOrEqual(LOOK_MAX_BYTES);
    expect(jsonByteLength(clean)).toBeLessThan(400);
  });
});

describe('jsonByteLength', () => {
  it('counts UTF-8 bytes of the JSON', () => {
    expect(jsonByteLength({ accent: '#1b7fa6' })).toBe(20);
    expect(jsonByteLength('é')).toBe(4);
    expect(jsonByteLength(undefined)).toBe(0);
  });
});

describe('isPlainObject', () => {
  it('is true only for non-null, non-array objects', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject('x')).toBe(false);
  });
});
