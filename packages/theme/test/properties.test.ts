// Property tests over arbitrary JSON: cleaning, merging, compiling and the commands cleaner.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTROL_CONTRAST,
  checkPalette,
  cleanCommands,
  cleanLook,
  compilePalette,
  contrastRatio,
  ensureContrast,
  isHex,
  jsonByteLength,
  LOOK_KEYS,
  LOOK_MAX_BYTES,
  LOOK_WORDS,
  mergeLook,
  PRESET_NAMES,
  STYLE_WORDS,
  seedAccent,
  TEXT_CONTRAST,
} from '../src/index.js';

const hex = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map(([r, g, b]) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`);
const word = (words: readonly string[]) => fc.constantFrom(...words);

/** Looks that are mostly valid, with junk mixed in, so every branch of the compiler is reached. */
const lookish = fc.record(
  {
    preset: fc.oneof(word(PRESET_NAMES), fc.string()),
    accent: fc.oneof(
      hex,
      hex.map((h) => h.toUpperCase()),
      fc.string(),
    ),
    bg: fc.oneof(hex, fc.constant('#000000'), fc.constant('#ffffff'), fc.jsonValue()),
    radius: word(LOOK_WORDS.radius),
    font: word(LOOK_WORDS.font),
    weight: word(LOOK_WORDS.weight),
    motion: word(LOOK_WORDS.motion),
    pace: word(LOOK_WORDS.pace),
    ease: word(LOOK_WORDS.ease),
    enter: word(LOOK_WORDS.enter),
    pulse: word(LOOK_WORDS.pulse),
    style: fc.record(
      {
        screen: word(STYLE_WORDS.screen),
        gallery: word(STYLE_WORDS.gallery),
        chart: word(STYLE_WORDS.chart),
        buttons: word(STYLE_WORDS.buttons),
      },
      { requiredKeys: [] },
    ),
    at: fc
      .date({ noInvalidDate: true, min: new Date(0), max: new Date(Date.UTC(9999, 0)) })
      .map((d) => d.toISOString()),
    by: word(LOOK_WORDS.by),
    junk: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

function expectValidLook(look: Record<string, unknown>) {
  for (const [key, value] of Object.entries(look)) {
    expect(LOOK_KEYS).toContain(key);
    if (key === 'accent' || key === 'bg')
      expect(isHex(value) && value === (value as string).toLowerCase()).toBe(true);
    else if (key === 'at') expect(new Date(value as string).toISOString()).toBe(value);
    else if (key === 'style') {
      expect(Object.keys(value as object).length).toBeGreaterThan(0);
      for (const [k, v] of Object.entries(value as object)) {
        expect(STYLE_WORDS[k as keyof typeof STYLE_WORDS] as readonly string[]).toContain(v);
      }
    } else expect(LOOK_WORDS[key as keyof typeof LOOK_WORDS] as readonly string[]).toContain(value);
  }
  expect(jsonByteLength(look)).toBeLessThanOrEqual(LOOK_MAX_BYTES);
}

describe('properties', () => {
  it('cleanLook of any JSON is a valid look of at most 2 KB, and cleaning is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), lookish), (input) => {
        const look = cleanLook(input);
        expectValidLook(look as Record<string, unknown>);
        expect(cleanLook(look)).toEqual(look);
        expect(cleanLook(JSON.parse(JSON.stringify(look)))).toEqual(look);
      }),
      { numRuns: 500 },
    );
  });

  it('mergeLook of any two JSON values is a valid look', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), lookish), fc.oneof(fc.jsonValue(), lookish), (a, b) => {
        expectValidLook(mergeLook(a, b) as Record<string, unknown>);
      }),
      { numRuns: 300 },
    );
  });

  it('mergeLook never lets an older line override a newer `at`', () => {
    fc.assert(
      fc.property(lookish, lookish, (a, b) => {
        const current = cleanLook(a);
        const incoming = cleanLook(b);
        if (current.at && incoming.at && incoming.at < current.at) {
          expect(mergeLook(current, incoming)).toEqual(current);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('every compiled palette meets 4.5:1 for text and 3:1 for controls, light and dark', () => {
    fc.assert(
      fc.property(
        fc.oneof(lookish, fc.jsonValue()),
        fc.option(fc.string(), { nil: undefined }),
        (look, handle) => {
          const { light, dark } = compilePalette(look, handle === undefined ? {} : { handle });
          for (const palette of [light, dark]) {
            const failing = checkPalette(palette).filter((c) => !c.ok);
            expect(failing).toEqual([]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ensureContrast always reaches the ratio against one background', () => {
    fc.assert(
      fc.property(hex, hex, fc.constantFrom(TEXT_CONTRAST, CONTROL_CONTRAST), (fg, bg, ratio) => {
        expect(contrastRatio(ensureContrast(fg, [bg], ratio), bg)).toBeGreaterThanOrEqual(ratio);
      }),
      { numRuns: 500 },
    );
  });

  it('seeded accents are stable (pinned names) and valid for any string', () => {
    expect(['weather', 'ada', 'coder', 'hermes', '日本'].map(seedAccent)).toEqual([
      '#eba2e0',
      '#ea9a9d',
      '#9df19e',
      '#ea86e3',
      '#eea48b',
    ]);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (name) => {
        expect(seedAccent(name)).toMatch(/^#[0-9a-f]{6}$/);
        expect(seedAccent(name)).toBe(seedAccent(` ${name}\t`));
      }),
    );
    fc.assert(
      fc.property(fc.string(), (ascii) => {
        expect(seedAccent(ascii.toUpperCase())).toBe(seedAccent(ascii));
      }),
    );
  });

  it('cleanCommands of any JSON list keeps only valid entries within every limit', () => {
    const entry = fc.record(
      {
        name: fc.oneof(fc.stringMatching(/^\/?[A-Za-z0-9][A-Za-z0-9_-]{0,40}$/), fc.jsonValue()),
        description: fc.oneof(fc.string({ maxLength: 300, unit: 'grapheme' }), fc.jsonValue()),
        args: fc.oneof(fc.string({ maxLength: 120 }), fc.jsonValue()),
        extra: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, fc.jsonValue()), { maxLength: 260 }), (input) => {
        const result = cleanCommands(input);
        expect(result.ok).toBe(true);
        if (!result.ok || result.commands === null) return;
        const names = new Set<string>();
        for (const command of result.commands) {
          expect(command.name).toMatch(/^[a-z0-9][a-z0-9_-]{0,31}$/);
          expect(names.has(command.name)).toBe(false);
          names.add(command.name);
          expect(Array.from(command.description).length).toBeLessThanOrEqual(100);
          expect(command.description).not.toMatch(/[\n\r]/);
          if (command.args !== undefined) expect(Array.from(command.args).length).toBeLessThanOrEqual(60);
          expect(Object.keys(command).every((k) => ['name', 'description', 'args'].includes(k))).toBe(true);
        }
        expect(result.commands.length).toBeLessThanOrEqual(200);
        expect(jsonByteLength(result.commands)).toBeLessThanOrEqual(32 * 1024);
        expect(result.dropped).toBe(input.length - result.commands.length);
      }),
      { numRuns: 150 },
    );
  });
});
