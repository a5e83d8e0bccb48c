// The look vocabulary lives in @screen-service/theme; the theme line of @screen-service/screen-lines
// keeps its own key and style lists (the parser must not depend on theme). This proves the copies equal,
// both as lists and by behaviour: every look word parses in a theme line and comes out of cleanLook unchanged.
import { parse, THEME_STYLE_KEYS, THEME_WORD_KEYS } from '@screen-service/screen-lines';
import { cleanLook, LOOK_KEYS, LOOK_WORDS, STYLE_WORDS } from '@screen-service/theme';
import { describe, expect, it } from 'vitest';

describe('the look vocabulary: theme and the theme line agree', () => {
  it('has the same keys', () => {
    const lineKeys = new Set([...THEME_WORD_KEYS, 'accent', 'bg', 'at', 'by', 'style']);
    expect(lineKeys).toEqual(new Set(LOOK_KEYS));
    expect(new Set([...THEME_WORD_KEYS, 'by'])).toEqual(new Set(Object.keys(LOOK_WORDS)));
  });

  it('has the same style words', () => {
    expect(Object.keys(THEME_STYLE_KEYS).sort()).toEqual(Object.keys(STYLE_WORDS).sort());
    for (const [key, words] of Object.entries(STYLE_WORDS))
      expect([...(THEME_STYLE_KEYS[key] ?? [])], key).toEqual([...words]);
  });

  it('parses every look word in a theme line, and cleanLook keeps it as it is', () => {
    const lines: string[] = [];
    for (const [key, words] of Object.entries(LOOK_WORDS))
      for (const w of words) lines.push(`theme ${key}=${w}`);
    for (const [key, words] of Object.entries(STYLE_WORDS))
      for (const w of words) lines.push(`theme ${key}=${w}`);
    for (const line of lines) {
      const { ops, errors } = parse(line);
      expect(errors, line).toEqual([]);
      const look = (ops[0] as { look: Record<string, unknown> }).look;
      expect(cleanLook(look), line).toEqual(look);
    }
  });
});
