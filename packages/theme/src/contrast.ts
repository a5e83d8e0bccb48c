// WCAG 2.x relative luminance and contrast ratio, the yardstick of every palette guardrail.
import { parseHex, type Rgb } from './hex.js';

/** Body text (WCAG 2.x 1.4.3, level AA): 4.5:1. */
export const TEXT_CONTRAST = 4.5;
/** Controls and graphics (WCAG 2.x 1.4.11): 3:1. */
export const CONTROL_CONTRAST = 3;

/** One sRGB channel (0..255) to linear light, per the sRGB transfer curve WCAG 2.x uses. */
export function linearChannel(value: number): number {
  const c = value / 255;
  // WCAG 2.0 printed 0.03928, the sRGB standard says 0.04045: no 8-bit value lies between them.
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance (0 for black, 1 for white) of 0..255 channels. */
export function luminanceOfRgb({ r, g, b }: Rgb): number {
  return 0.2126 * linearChannel(r) + 0.7152 * linearChannel(g) + 0.0722 * linearChannel(b);
}

/**
 * WCAG 2.x relative luminance of a `#RRGGBB` colour.
 *
 * @throws {ThemeError} `INVALID_HEX` when `hex` is not `#RRGGBB`.
 * @example
 * ```ts
 * relativeLuminance('#ffffff'); // 1
 * ```
 */
export function relativeLuminance(hex: string): number {
  return luminanceOfRgb(parseHex(hex));
}

/**
 * WCAG 2.x contrast ratio of two `#RRGGBB` colours, from 1 (same) to 21 (black on white). Order does
 * not matter.
 *
 * @throws {ThemeError} `INVALID_HEX` when either colour is not `#RRGGBB`.
 * @example
 * ```ts
 * contrastRatio('#767676', '#ffffff'); // 4.54...
 * ```
 */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}
