import { describe, expect, it } from 'vitest';
import {
  EASE_TOKENS,
  ENTER_TOKENS,
  FONT_TOKENS,
  MOTION_TOKENS,
  PACE_TOKENS,
  PULSE_TOKENS,
  RADIUS_TOKENS,
  WEIGHT_TOKENS,
} from './tokens.js';
import { LOOK_WORDS, MOTION_PARTS, STYLE_WORDS } from './vocabulary.js';

describe('look words', () => {
  it('are lowercase, unique per key, and short', () => {
    for (const words of [...Object.values(LOOK_WORDS), ...Object.values(STYLE_WORDS)]) {
      expect(new Set(words).size).toBe(words.length);
      for (const word of words) expect(word).toMatch(/^[a-z][a-z0-9]{1,11}$/);
    }
  });
  it('each have a CSS meaning', () => {
    const tables: [readonly string[], object][] = [
      [LOOK_WORDS.radius, RADIUS_TOKENS],
      [LOOK_WORDS.font, FONT_TOKENS],
      [LOOK_WORDS.weight, WEIGHT_TOKENS],
      [LOOK_WORDS.motion, MOTION_TOKENS],
      [LOOK_WORDS.pace, PACE_TOKENS],
      [LOOK_WORDS.ease, EASE_TOKENS],
      [LOOK_WORDS.enter, ENTER_TOKENS],
      [LOOK_WORDS.pulse, PULSE_TOKENS],
    ];
    for (const [words, tokens] of tables) expect(Object.keys(tokens)).toEqual([...words]);
  });
  it('motion bundles name only real part words', () => {
    for (const bundle of Object.values(MOTION_TOKENS)) {
      expect(Object.keys(bundle)).toEqual([...MOTION_PARTS]);
      for (const part of MOTION_PARTS) expect(LOOK_WORDS[part] as readonly string[]).toContain(bundle[part]);
    }
  });
  it('paces grow from fast to slow, and instant is zero', () => {
    for (const pace of Object.values(PACE_TOKENS)) {
      const [fast, base, slow] = [pace.fast, pace.base, pace.slow].map((d) => Number.parseInt(d, 10)) as [
        number,
        number,
        number,
      ];
      expect(fast <= base && base <= slow).toBe(true);
    }
    expect(PACE_TOKENS.instant).toEqual({ fast: '0ms', base: '0ms', slow: '0ms' });
  });
});
