// Defaults from a handle: a stable pastel accent, the nearest agent colour name, and the seeded look.
import { ThemeError } from './errors.js';
import { hashString } from './hash.js';
import { formatHex } from './hex.js';
import { isPresetName } from './presets.js';
import type { Look } from './vocabulary.js';

/** doc2 Agent `color`: the names an agent row may carry (`brand` is legacy, never seeded). */
export const AGENT_COLORS = ['lavender', 'mint', 'butter', 'brand'] as const;
export type AgentColor = (typeof AGENT_COLORS)[number];

/** The swatch each agent colour name stands for (chips, avatars, the agent list). */
export const AGENT_COLOR_HEX: Readonly<Record<AgentColor, string>> = {
  lavender: '#c4b5fd',
  mint: '#a7e8cf',
  butter: '#fde68a',
  brand: '#5b5bd6',
};

function checkName(name: unknown): string {
  if (typeof name !== 'string') {
    throw new ThemeError('INVALID_HANDLE', `a handle or name must be a string, got ${typeof name}`);
  }
  return name.trim().toLowerCase();
}

/** Integer hue 0..359 and the raw hash of a name (trimmed, lowercased). */
function seedOf(name: unknown): { hash: number; hue: number } {
  const hash = hashString(checkName(name));
  return { hash, hue: hash % 360 };
}

/**
 * HSL to RGB with only + - * / (correctly rounded in IEEE 754), so the seeded colour is the same on
 * every platform; OKLCH would need cos/cbrt, which engines may round differently.
 */
function hslToRgb(h: number, s: number, l: number) {
  const chroma = (1 - Math.abs(2 * l - 1)) * s;
  const sector = h / 60;
  const x = chroma * (1 - Math.abs((sector % 2) - 1));
  const [r, g, b] =
    sector < 1
      ? [chroma, x, 0]
      : sector < 2
        ? [x, chroma, 0]
        : sector < 3
          ? [0, chroma, x]
          : sector < 4
            ? [0, x, chroma]
            : sector < 5
              ? [x, 0, chroma]
              : [chroma, 0, x];
  const m = l - chroma / 2;
  return { r: (r + m) * 255, g: (g + m) * 255, b: (b + m) * 255 };
}

/**
 * The stable pastel accent of a handle or name: the same `#rrggbb` for the same name (trimmed,
 * case-insensitive) on every run and platform. Hue from the hash; saturation 55-75 %, lightness
 * 72-80 % (pastel).
 *
 * @throws {ThemeError} `INVALID_HANDLE` when `name` is not a string.
 * @example
 * ```ts
 * seedAccent('weather'); // '#eba2e0', on every run and platform
 * ```
 */
export function seedAccent(name: string): string {
  const { hash, hue } = seedOf(name);
  const saturation = 0.55 + ((hash >>> 9) % 5) * 0.05;
  const lightness = 0.72 + ((hash >>> 13) % 5) * 0.02;
  return formatHex(hslToRgb(hue, saturation, lightness));
}

/**
 * The agent colour name seeded from a handle or name: the one of `lavender`, `mint`, `butter`
 * nearest the hue of {@link seedAccent} (warm hues 20-109° are butter, greens and teals 110-199°
 * mint, blues, violets, pinks and reds lavender).
 *
 * @throws {ThemeError} `INVALID_HANDLE` when `name` is not a string.
 * @example
 * ```ts
 * AGENT_COLORS.includes(seedColor('weather')); // true
 * ```
 */
export function seedColor(name: string): Exclude<AgentColor, 'brand'> {
  const { hue } = seedOf(name);
  if (hue >= 20 && hue < 110) return 'butter';
  if (hue >= 110 && hue < 200) return 'mint';
  return 'lavender';
}

/**
 * The look an agent starts with when its theme is `{}`: a handle equal to a preset name starts in that
 * preset; any other handle gets the default preset with its own pastel accent.
 *
 * @throws {ThemeError} `INVALID_HANDLE` when `handle` is not a string.
 * @example
 * ```ts
 * seedLook('paper'); // { preset: 'paper' }
 * seedLook('weather'); // { accent: seedAccent('weather') }
 * ```
 */
export function seedLook(handle: string): Look {
  const name = checkName(handle);
  return isPresetName(name) ? { preset: name } : { accent: seedAccent(name) };
}
