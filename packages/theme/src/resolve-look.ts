// resolveLook: a look made whole (handle seed, preset, motion parts, style defaults) for the renderer.
import { cleanLook } from './clean-look.js';
import { DEFAULT_PRESET, PRESETS } from './presets.js';
import { seedLook } from './seed-look.js';
import { MOTION_TOKENS } from './tokens.js';
import type {
  ButtonStyle,
  ChartStyle,
  EaseWord,
  EnterWord,
  FontWord,
  GalleryStyle,
  MotionWord,
  PaceWord,
  PresetName,
  PulseWord,
  RadiusWord,
  ScreenStyle,
  WeightWord,
} from './vocabulary.js';

/** Options of {@link resolveLook} and `compilePalette`. */
export interface ResolveLookOptions {
  /** The agent's handle: seeds the accent (or the preset) when the look names no preset. */
  handle?: string;
}

/** Every part of a look decided: what the renderer and the palette compiler read. */
export interface ResolvedLook {
  preset: PresetName;
  accent: string;
  /** The look's own background, when it has one (light or dark); otherwise tinted from the accent. */
  bg: string | undefined;
  radius: RadiusWord;
  font: FontWord;
  weight: WeightWord;
  motion: MotionWord;
  pace: PaceWord;
  ease: EaseWord;
  enter: EnterWord;
  pulse: PulseWord;
  style: { screen: ScreenStyle; gallery: GalleryStyle; chart: ChartStyle; buttons: ButtonStyle };
}

/** Layout defaults when a look's `style` leaves a choice open. */
export const DEFAULT_STYLE: ResolvedLook['style'] = {
  screen: 'chat',
  gallery: 'row',
  chart: 'line',
  buttons: 'row',
};

/**
 * Decides every part of a look. Layers, last wins: the preset (the look's, else the handle's seed,
 * else `studio`), the handle's seeded accent (only when the look names no preset), the look's own
 * keys; then `pace`/`ease`/`enter`/`pulse` each override their part of `motion`. Input is cleaned
 * first, so anything may be passed.
 *
 * @example
 * ```ts
 * resolveLook({ preset: 'paper', motion: 'brisk', ease: 'spring' }).ease; // 'spring'
 * resolveLook({}, { handle: 'terminal' }).font; // 'mono'
 * ```
 */
export function resolveLook(input: unknown, options: ResolveLookOptions = {}): ResolvedLook {
  const look = cleanLook(input);
  const seeded = look.preset === undefined && options.handle !== undefined ? seedLook(options.handle) : {};
  const layered = { ...seeded, ...look };
  const preset = PRESETS[layered.preset ?? DEFAULT_PRESET];
  const motion = layered.motion ?? preset.motion;
  const parts = MOTION_TOKENS[motion];
  return {
    preset: preset.name,
    accent: layered.accent ?? preset.accent,
    bg: layered.bg ?? preset.bg,
    radius: layered.radius ?? preset.radius,
    font: layered.font ?? preset.font,
    weight: layered.weight ?? preset.weight,
    motion,
    pace: layered.pace ?? parts.pace,
    ease: layered.ease ?? parts.ease,
    enter: layered.enter ?? parts.enter,
    pulse: layered.pulse ?? parts.pulse,
    style: { ...DEFAULT_STYLE, ...look.style },
  };
}
