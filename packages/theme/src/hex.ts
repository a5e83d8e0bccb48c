// `#rrggbb` hex colours: the only colour form a look stores and a palette emits.
import { ThemeError } from './errors.js';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** An sRGB colour with channels 0..255. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/**
 * True when `value` is a `#RRGGBB` hex string (either case; no shorthand, no alpha).
 *
 * @example
 * ```ts
 * isHex('#1B7FA6'); // true
 * isHex('#fff'); // false
 * ```
 */
export function isHex(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value);
}

/**
 * Reads a `#RRGGBB` hex string into 0..255 channels.
 *
 * @throws {ThemeError} `INVALID_HEX` when `hex` is not `#RRGGBB`.
 * @example
 * ```ts
 * parseHex('#ff8000'); // { r: 255, g: 128, b: 0 }
 * ```
 */
export function parseHex(hex: string): Rgb {
  if (!isHex(hex)) {
    throw new ThemeError(
      'INVALID_HEX',
      `${JSON.stringify(hex)} is not a colour: write it as #RRGGBB, e.g. #1b7fa6`,
    );
  }
  const n = Number.parseInt(hex.slice(1), 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

/**
 * Writes channels as lowercase `#rrggbb`, rounding and clamping each to 0..255.
 *
 * @example
 * ```ts
 * formatHex({ r: 255, g: 127.6, b: -3 }); // '#ff8000'
 * ```
 */
export function formatHex({ r, g, b }: Rgb): string {
  const part = (v: number) =>
    Math.round(Math.min(255, Math.max(0, v)))
      .toString(16)
      .padStart(2, '0');
  return `#${part(r)}${part(g)}${part(b)}`;
}
