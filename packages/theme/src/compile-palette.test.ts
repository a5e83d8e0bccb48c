import { describe, expect, it } from 'vitest';
import { checkPalette } from './check-palette.js';
import { compilePalette } from './compile-palette.js';
import { contrastRatio } from './contrast.js';
import { hexToOklch } from './oklch.js';
import { CONTRAST_RULES, PALETTE_VARIABLES } from './palette-variables.js';
import { PRESETS } from './presets.js';
import { seedAccent } from './seed-look.js';
import { FONT_TOKENS, PACE_TOKENS, RADIUS_TOKENS } from './tokens.js';
import { PRESET_NAMES } from './vocabulary.js';

const COLOUR_VARIABLES = Object.keys(PALETTE_VARIABLES).filter(
  (name) => !/shadow|radius|font|weight|duration|ease|enter|pulse|scheme/.test(name),
);

describe('compilePalette', () => {
  it('sets exactly the documented variables, colours as #rrggbb, in both schemes', () => {
    const { light, dark } = compilePalette({});
    for (const palette of [light, dark]) {
      expect(Object.keys(palette).sort()).toEqual(Object.keys(PALETTE_VARIABLES).sort());
      for (const name of COLOUR_VARIABLES)
        expect(palette[name as keyof typeof palette]).toMatch(/^#[0-9a-f]{6}$/);
    }
    expect(light['--svc-scheme']).toBe('light');
    expect(dark['--svc-scheme']).toBe('dark');
  });

  it('meets every contrast rule for every preset, light and dark', () => {
    for (const preset of PRESET_NAMES) {
      const { light, dark } = compilePalette({ preset });
      expect(checkPalette(light).filter((c) => !c.ok)).toEqual([]);
      expect(checkPalette(dark).filter((c) => !c.ok)).toEqual([]);
    }
  });

  it('placeholder text reaches 4.5:1 and a progress fill 3:1 on its track in every look (issue 38)', () => {
    // Every preset, 200 seeded handles and a few hostile looks, in light and dark: the field grounds a
    // placeholder sits on, the track a progress fill sits in, and a stat's change on a group card.
    const looks = [
      ...PRESET_NAMES.map((preset) => ({ look: { preset }, handle: undefined })),
      ...Array.from({ length: 200 }, (_, i) => ({ look: {}, handle: `agent-${i}` })),
      { look: { accent: '#fde68a', bg: '#ffffff' }, handle: undefined },
      { look: { accent: '#777777', bg: '#777777' }, handle: undefined },
    ];
    let lowest = { placeholder: 21, fill: 21, change: 21 };
    for (const { look, handle } of looks) {
      const palettes = compilePalette(look, handle ? { handle } : {});
      for (const p of [palettes.light, palettes.dark]) {
        const grounds = [p['--svc-bg'], p['--svc-surface'], p['--svc-surface-alt']];
        lowest = {
          placeholder: Math.min(
            lowest.placeholder,
            ...grounds.map((g) => contrastRatio(p['--svc-placeholder'], g)),
          ),
          fill: Math.min(lowest.fill, contrastRatio(p['--svc-accent'], p['--svc-track'])),
          change: Math.min(
            lowest.change,
            ...grounds.flatMap((g) => [contrastRatio(p['--svc-good'], g), contrastRatio(p['--svc-bad'], g)]),
          ),
        };
      }
    }
    expect(lowest.placeholder).toBeGreaterThanOrEqual(4.5);
    expect(lowest.fill).toBeGreaterThanOrEqual(3);
    expect(lowest.change).toBeGreaterThanOrEqual(4.5);
  });

  it('moves the track, not the accent, to make the progress fill readable', () => {
    // Sunset's coral read 2.8:1 on its surface-alt track; the accent stays the agent's own colour.
    const { light } = compilePalette({ preset: 'sunset' });
    expect(light['--svc-accent']).toBe(PRESETS.sunset.accent);
    expect(light['--svc-track']).not.toBe(light['--svc-surface-alt']);
    expect(contrastRatio(light['--svc-accent'], light['--svc-track'])).toBeGreaterThanOrEqual(3);
  });

  it('keeps a look’s accent as is when it already passes', () => {
    expect(compilePalette({ preset: 'studio' }).light['--svc-accent']).toBe('#5b5bd6');
    expect(compilePalette({ preset: 'ocean' }).light['--svc-accent']).toBe(PRESETS.ocean.accent);
  });

  it('adjusts a pastel accent on white instead of refusing it, keeping its hue', () => {
    const { light, dark } = compilePalette({ accent: '#fde68a', bg: '#ffffff' });
    expect(light['--svc-accent']).not.toBe('#fde68a');
    expect(contrastRatio(light['--svc-accent'], light['--svc-bg'])).toBeGreaterThanOrEqual(3);
    expect(Math.abs(hexToOklch(light['--svc-accent']).h - hexToOklch('#fde68a').h)).toBeLessThan(8);
    expect(dark['--svc-accent']).toBe('#fde68a');
  });

  it('fixes text even on a hostile mid-grey background', () => {
    const { light, dark } = compilePalette({ accent: '#777777', bg: '#777777' });
    expect(checkPalette(light).every((c) => c.ok)).toBe(true);
    expect(checkPalette(dark).every((c) => c.ok)).toBe(true);
  });

  it('uses a light `bg` for the light scheme and tints the dark one from it', () => {
    const { light, dark } = compilePalette({ preset: 'paper' });
    expect(light['--svc-bg']).toBe('#faf6ec');
    expect(hexToOklch(dark['--svc-bg']).l).toBeLessThan(0.3);
    expect(Math.abs(hexToOklch(dark['--svc-bg']).h - hexToOklch('#faf6ec').h)).toBeLessThan(15);
  });

  it('uses a dark `bg` for the dark scheme and derives a light one', () => {
    const { light, dark } = compilePalette({ preset: 'midnight' });
    expect(dark['--svc-bg']).toBe('#131526');
    expect(hexToOklch(light['--svc-bg']).l).toBeGreaterThan(0.95);
  });

  it('clamps an own background into a usable range', () => {
    expect(hexToOklch(compilePalette({ bg: '#000000' }).dark['--svc-bg']).l).toBeGreaterThan(0.12);
    expect(hexToOklch(compilePalette({ bg: '#c0c0ff' }).light['--svc-bg']).l).toBeGreaterThan(0.92);
  });

  it('tints the backgrounds from the accent when the look has no bg', () => {
    const { light } = compilePalette({ accent: '#1b7fa6' });
    expect(Math.abs(hexToOklch(light['--svc-bg']).h - hexToOklch('#1b7fa6').h)).toBeLessThan(20);
  });

  it('turns a grey ink accent to chalk in the dark', () => {
    const { light, dark } = compilePalette({ preset: 'ink' });
    expect(light['--svc-accent']).toBe('#222222');
    expect(hexToOklch(dark['--svc-accent']).l).toBeGreaterThan(0.7);
    expect(hexToOklch(dark['--svc-focus']).c).toBeLessThan(0.02);
  });

  it('puts white on a dark accent and dark ink on a light one', () => {
    expect(compilePalette({ accent: '#1e3a8a' }).light['--svc-on-accent']).toBe('#ffffff');
    const light = compilePalette({ accent: '#fde68a' }).dark;
    expect(hexToOklch(light['--svc-on-accent']).l).toBeLessThan(0.3);
  });

  it('seeds from the handle when the look is empty', () => {
    const { dark } = compilePalette({}, { handle: 'weather' });
    expect(dark['--svc-accent']).toBe(seedAccent('weather'));
    expect(compilePalette({}, { handle: 'terminal' }).dark['--svc-bg']).toBe('#0e1110');
  });

  it('writes the shape, type and motion words', () => {
    const { light } = compilePalette({
      radius: 'pill',
      font: 'serif',
      weight: 'bold',
      pace: 'slow',
      enter: 'pop',
    });
    expect(light['--svc-radius']).toBe(RADIUS_TOKENS.pill.control);
    expect(light['--svc-radius-card']).toBe(RADIUS_TOKENS.pill.card);
    expect(light['--svc-font']).toBe(FONT_TOKENS.serif);
    expect(light['--svc-weight']).toBe('600');
    expect(light['--svc-weight-strong']).toBe('800');
    expect(light['--svc-duration']).toBe(PACE_TOKENS.slow.base);
    expect(light['--svc-enter-transform']).toBe('scale(0.94)');
  });

  it('with reduceMotion only fades: no transform, no pulse, no overshoot', () => {
    const { light } = compilePalette({ motion: 'lively' }, { reduceMotion: true });
    expect(light['--svc-enter-transform']).toBe('none');
    expect(light['--svc-enter-opacity']).toBe('0');
    expect(light['--svc-pulse-duration']).toBe('0ms');
    expect(light['--svc-pulse-scale']).toBe('1');
    expect(light['--svc-ease-emphasis']).toBe(light['--svc-ease']);
    expect(compilePalette({ enter: 'none' }, { reduceMotion: true }).light['--svc-enter-opacity']).toBe('1');
  });

  it('never throws on junk input', () => {
    expect(compilePalette('junk').light['--svc-accent']).toBe('#5b5bd6');
    expect(compilePalette(null).dark['--svc-scheme']).toBe('dark');
  });

  it('is deterministic', () => {
    expect(compilePalette({ accent: '#123456' })).toEqual(compilePalette({ accent: '#123456' }));
  });
});

describe('CONTRAST_RULES', () => {
  it('only names palette variables and uses the two WCAG targets', () => {
    for (const rule of CONTRAST_RULES) {
      expect(PALETTE_VARIABLES).toHaveProperty(rule.fg);
      expect(PALETTE_VARIABLES).toHaveProperty(rule.bg);
      expect([3, 4.5]).toContain(rule.min);
    }
  });
  it('covers body text, muted text, on-accent, controls, focus and every chart series', () => {
    const pairs = CONTRAST_RULES.map((r) => `${r.fg}/${r.bg}`);
    for (const pair of [
      '--svc-text/--svc-bg',
      '--svc-text/--svc-accent-soft',
      '--svc-text-muted/--svc-surface',
      '--svc-on-accent/--svc-accent',
      '--svc-accent/--svc-bg',
      '--svc-border/--svc-surface-alt',
      '--svc-focus/--svc-surface',
      '--svc-chart-6/--svc-surface',
    ]) {
      expect(pairs).toContain(pair);
    }
  });
});
