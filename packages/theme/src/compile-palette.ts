// compilePalette: a look to light and dark maps of CSS custom properties, with contrast guardrails.
import { CONTROL_CONTRAST, contrastRatio, TEXT_CONTRAST } from './contrast.js';
import { ensureContrast } from './guardrail.js';
import { hexToOklch, type Oklch, oklchToHex } from './oklch.js';
import type { Palette } from './palette-variables.js';
import { type ResolvedLook, type ResolveLookOptions, resolveLook } from './resolve-look.js';
import {
  EASE_TOKENS,
  ENTER_TOKENS,
  FONT_TOKENS,
  MONO_STACK,
  PACE_TOKENS,
  PULSE_TOKENS,
  RADIUS_TOKENS,
  WEIGHT_TOKENS,
} from './tokens.js';

/** Options of {@link compilePalette}. */
export interface CompilePaletteOptions extends ResolveLookOptions {
  /**
   * The person asked for less motion (`prefers-reduced-motion: reduce`): entering screens only fade,
   * nothing pulses or scales. Durations stay so fades still read.
   */
  reduceMotion?: boolean;
}

/** A look compiled for both schemes. */
export interface CompiledPalettes {
  light: Palette;
  dark: Palette;
}

/** Hue offsets of chart series 2-6 from the accent's hue: far apart first, then in between. */
const CHART_HUE_OFFSETS = [180, 90, 270, 45, 225];
/** Colours with less OKLCH chroma than this read as grey: keep them grey when tinting. */
const GREY_CHROMA = 0.02;
/** A look's `bg` lighter than this (OKLCH L) is its light background, darker its dark one. */
const LIGHT_BG_MIN = 0.6;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const hex = (l: number, c: number, h: number) => oklchToHex({ l, c, h });

interface Ground {
  bg: string;
  surface: string;
  alt: string;
  /** The background's OKLCH, for tints that follow it. */
  tone: Oklch;
}

/** Backgrounds of one scheme: the look's own `bg` on its side (clamped to a usable range), else tinted. */
function groundOf(dark: boolean, look: ResolvedLook, accent: Oklch): Ground {
  const own = look.bg === undefined ? undefined : hexToOklch(look.bg);
  const ownSide = own !== undefined && own.l < LIGHT_BG_MIN === dark;
  let tone: Oklch;
  if (own && ownSide) {
    tone = dark
      ? { l: clamp(own.l, 0.13, 0.3), c: Math.min(own.c, 0.04), h: own.h }
      : { l: clamp(own.l, 0.93, 1), c: Math.min(own.c, 0.045), h: own.h };
  } else if (own) {
    tone = dark
      ? { l: 0.2, c: Math.min(own.c * 0.6, 0.02), h: own.h }
      : { l: 0.975, c: Math.min(own.c, 0.015), h: own.h };
  } else {
    tone = dark
      ? { l: 0.19, c: Math.min(accent.c, 0.012), h: accent.h }
      : { l: 0.985, c: Math.min(accent.c, 0.006), h: accent.h };
  }
  const keepsOwn = own !== undefined && ownSide && tone.l === own.l && tone.c === own.c;
  const bg = keepsOwn && look.bg !== undefined ? look.bg : hex(tone.l, tone.c, tone.h);
  if (dark) {
    return { bg, surface: hex(tone.l + 0.05, tone.c, tone.h), alt: hex(tone.l + 0.1, tone.c, tone.h), tone };
  }
  const surface = tone.l >= 0.985 ? '#ffffff' : hex(Math.min(1, tone.l + 0.025), tone.c / 2, tone.h);
  return { bg, surface, alt: hex(tone.l - 0.035, tone.c, tone.h), tone };
}

/** The text colour on an accent fill: white, else a dark ink of the accent's hue, else black. */
function onAccentOf(fill: string, ink: string): string {
  for (const candidate of ['#ffffff', ink, '#000000']) {
    if (contrastRatio(candidate, fill) >= TEXT_CONTRAST) return candidate;
  }
  return '#000000';
}

function colours(dark: boolean, look: ResolvedLook): Record<string, string> {
  const accent = hexToOklch(look.accent);
  const grey = accent.c < GREY_CHROMA;
  const tint = (c: number) => (grey ? Math.min(accent.c, c) : c);
  const { bg, surface, alt } = groundOf(dark, look, accent);
  const ground = [bg, surface, alt];
  // A grey accent is "ink": in the dark it turns to chalk rather than a dim mid-grey.
  const base = grey && dark ? hex(1 - accent.l, accent.c, accent.h) : look.accent;
  const fill = ensureContrast(base, [bg, surface], CONTROL_CONTRAST);
  const soft = dark
    ? hex(0.3, Math.min(accent.c, 0.06), accent.h)
    : hex(0.94, Math.min(accent.c, 0.05), accent.h);
  const textGround = [...ground, soft];
  const text = (l: number, c: number) => ensureContrast(hex(l, tint(c), accent.h), textGround, TEXT_CONTRAST);
  const ensure = (l: number, c: number, h: number, on: string[], ratio: number) =>
    ensureContrast(hex(l, c, h), on, ratio);
  const series = CHART_HUE_OFFSETS.map((offset) =>
    ensure(dark ? 0.75 : 0.6, dark ? 0.13 : 0.14, (accent.h + offset) % 360, [bg, surface], CONTROL_CONTRAST),
  );
  const focusChroma = grey ? accent.c : Math.max(accent.c, 0.1);
  return {
    '--svc-scheme': dark ? 'dark' : 'light',
    '--svc-bg': bg,
    '--svc-surface': surface,
    '--svc-surface-alt': alt,
    '--svc-text': dark ? text(0.95, 0.01) : text(0.24, 0.02),
    '--svc-text-muted': dark ? text(0.76, 0.02) : text(0.5, 0.025),
    // Lighter than muted text in intent (a hint, not an answer) but held to the same 4.5:1 on every ground.
    '--svc-placeholder': ensure(dark ? 0.72 : 0.56, tint(0.02), accent.h, ground, TEXT_CONTRAST),
    '--svc-accent': fill,
    '--svc-on-accent': onAccentOf(fill, hex(0.22, tint(0.03), accent.h)),
    '--svc-accent-text': ensureContrast(base, ground, TEXT_CONTRAST),
    '--svc-accent-soft': soft,
    // The bar's track starts as surface-alt and moves away from the fill (not the fill from it: the accent is
    // the agent's colour) until the fill reads at 3:1 against it.
    '--svc-track': ensureContrast(alt, [fill], CONTROL_CONTRAST),
    '--svc-border': ensure(dark ? 0.6 : 0.62, tint(0.02), accent.h, ground, CONTROL_CONTRAST),
    '--svc-divider': hex(dark ? 0.33 : 0.9, tint(0.01), accent.h),
    '--svc-focus': ensure(dark ? 0.78 : 0.55, focusChroma, accent.h, ground, CONTROL_CONTRAST),
    '--svc-good': ensure(dark ? 0.78 : 0.52, 0.14, 150, ground, TEXT_CONTRAST),
    '--svc-bad': ensure(dark ? 0.74 : 0.55, dark ? 0.15 : 0.19, 27, ground, TEXT_CONTRAST),
    '--svc-chart-1': fill,
    ...Object.fromEntries(series.map((colour, i) => [`--svc-chart-${i + 2}`, colour])),
    '--svc-shadow': dark
      ? '0 1px 2px rgb(0 0 0 / 0.5), 0 6px 18px rgb(0 0 0 / 0.35)'
      : '0 1px 2px rgb(0 0 0 / 0.06), 0 4px 14px rgb(0 0 0 / 0.07)',
  };
}

function shapeAndMotion(look: ResolvedLook, reduceMotion: boolean): Record<string, string> {
  const radius = RADIUS_TOKENS[look.radius];
  const weight = WEIGHT_TOKENS[look.weight];
  const pace = PACE_TOKENS[look.pace];
  const ease = EASE_TOKENS[look.ease];
  const enter = ENTER_TOKENS[reduceMotion && look.enter !== 'none' ? 'fade' : look.enter];
  const pulse = PULSE_TOKENS[reduceMotion ? 'off' : look.pulse];
  return {
    '--svc-radius': radius.control,
    '--svc-radius-card': radius.card,
    '--svc-font': FONT_TOKENS[look.font],
    '--svc-font-mono': MONO_STACK,
    '--svc-weight': String(weight.body),
    '--svc-weight-strong': String(weight.strong),
    '--svc-duration-fast': pace.fast,
    '--svc-duration': pace.base,
    '--svc-duration-slow': pace.slow,
    '--svc-ease': ease.ease,
    '--svc-ease-emphasis': reduceMotion ? ease.ease : ease.emphasis,
    '--svc-enter-opacity': enter.opacity,
    '--svc-enter-transform': enter.transform,
    '--svc-pulse-duration': pulse.duration,
    '--svc-pulse-scale': pulse.scale,
    '--svc-pulse-ring': pulse.ring,
  };
}

/**
 * Compiles a look (cleaned first, so anything may be passed) into a light and a dark palette: maps of
 * CSS custom properties (see `PALETTE_VARIABLES`). Guardrails adjust colours instead of refusing a
 * look: every text colour reaches 4.5:1 and every control colour 3:1 against the backgrounds it sits
 * on (`CONTRAST_RULES`, WCAG 2.x), by moving OKLCH lightness and keeping the hue.
 *
 * @example
 * ```ts
 * const { light, dark } = compilePalette({ preset: 'ocean' });
 * element.style.setProperty('--svc-accent', light['--svc-accent']);
 * compilePalette({}, { handle: 'weather' }).light['--svc-accent']; // weather's own pastel, made usable
 * ```
 */
export function compilePalette(look: unknown, options: CompilePaletteOptions = {}): CompiledPalettes {
  const resolved = resolveLook(look, options);
  const shape = shapeAndMotion(resolved, options.reduceMotion === true);
  return {
    light: { ...colours(false, resolved), ...shape } as Palette,
    dark: { ...colours(true, resolved), ...shape } as Palette,
  };
}
