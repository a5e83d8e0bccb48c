// The preset looks: each a full recipe (colours, shape, type, motion) that other look keys override.
import { ThemeError } from './errors.js';
import {
  type FontWord,
  type MotionWord,
  PRESET_NAMES,
  type PresetName,
  type RadiusWord,
  type WeightWord,
} from './vocabulary.js';

/** A preset's recipe. `bg` is optional: without it the backgrounds are tinted from the accent. */
export interface Preset {
  name: PresetName;
  /** One line for the look picker. */
  description: string;
  accent: string;
  bg?: string;
  radius: RadiusWord;
  font: FontWord;
  weight: WeightWord;
  motion: MotionWord;
}

/** The look a look without a preset builds on. */
export const DEFAULT_PRESET: PresetName = 'studio';

/** Every preset, by name. */
export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  studio: {
    name: 'studio',
    description: 'Clean and neutral: indigo accent, soft corners, system type',
    accent: '#5b5bd6',
    radius: 'soft',
    font: 'system',
    weight: 'regular',
    motion: 'smooth',
  },
  paper: {
    name: 'paper',
    description: 'Warm ivory page, ink-blue accent, serif type, square corners',
    accent: '#355c8c',
    bg: '#faf6ec',
    radius: 'square',
    font: 'serif',
    weight: 'regular',
    motion: 'calm',
  },
  ink: {
    name: 'ink',
    description: 'Black and white, bold type, no motion',
    accent: '#222222',
    bg: '#ffffff',
    radius: 'square',
    font: 'system',
    weight: 'bold',
    motion: 'still',
  },
  garden: {
    name: 'garden',
    description: 'Leaf green on a pale sage page, humanist type, round corners',
    accent: '#2f7d4f',
    bg: '#f2f7f0',
    radius: 'round',
    font: 'humanist',
    weight: 'regular',
    motion: 'calm',
  },
  ocean: {
    name: 'ocean',
    description: 'Sea blue on a misty page, geometric type',
    accent: '#1b7fa6',
    bg: '#eef6f9',
    radius: 'round',
    font: 'geometric',
    weight: 'regular',
    motion: 'smooth',
  },
  sunset: {
    name: 'sunset',
    description: 'Coral on peach, rounded type, lively motion',
    accent: '#e0674f',
    bg: '#fff5ef',
    radius: 'round',
    font: 'rounded',
    weight: 'medium',
    motion: 'lively',
  },
  candy: {
    name: 'candy',
    description: 'Bubblegum pink, pill buttons, bouncy',
    accent: '#d9539b',
    bg: '#fdf2f8',
    radius: 'pill',
    font: 'rounded',
    weight: 'medium',
    motion: 'lively',
  },
  midnight: {
    name: 'midnight',
    description: 'Deep navy night with a violet glow, geometric type',
    accent: '#8b7cf6',
    bg: '#131526',
    radius: 'soft',
    font: 'geometric',
    weight: 'regular',
    motion: 'smooth',
  },
  terminal: {
    name: 'terminal',
    description: 'Green on near-black, monospace, square, brisk',
    accent: '#2fbf71',
    bg: '#0e1110',
    radius: 'square',
    font: 'mono',
    weight: 'regular',
    motion: 'brisk',
  },
};

/**
 * True when `name` is a preset name (exact, lowercase).
 *
 * @example
 * ```ts
 * isPresetName('paper'); // true
 * ```
 */
export function isPresetName(name: unknown): name is PresetName {
  return typeof name === 'string' && (PRESET_NAMES as readonly string[]).includes(name);
}

/**
 * The recipe of a preset.
 *
 * @throws {ThemeError} `UNKNOWN_PRESET` when `name` is not one of {@link PRESET_NAMES}.
 * @example
 * ```ts
 * getPreset('ocean').accent; // '#1b7fa6'
 * ```
 */
export function getPreset(name: string): Preset {
  if (!isPresetName(name)) {
    throw new ThemeError(
      'UNKNOWN_PRESET',
      `unknown preset ${JSON.stringify(name)}: use one of ${PRESET_NAMES.join(', ')}`,
    );
  }
  return PRESETS[name];
}
