// Contrast guardrails: move a colour's OKLCH lightness, keeping its hue, until it reaches a ratio.
import { contrastRatio } from './contrast.js';
import { ThemeError } from './errors.js';
import { hexToOklch, type Oklch, oklchToHex } from './oklch.js';

/** The lowest contrast of `hex` against every colour in `backgrounds`. */
export function minContrast(hex: string, backgrounds: readonly string[]): number {
  let low = Number.POSITIVE_INFINITY;
  for (const bg of backgrounds) low = Math.min(low, contrastRatio(hex, bg));
  return low;
}

/**
 * Returns `hex` unchanged when it already reaches `ratio` against every background; otherwise the
 * nearest colour of the same hue (by OKLCH lightness, darker or lighter) that does. The answer is
 * checked after rounding to `#rrggbb`, so it always meets the ratio as written. Falls back to black or
 * white when backgrounds on both sides of mid-grey make the hue impossible.
 *
 * @throws {ThemeError} `INVALID_CONTRAST_TARGET` when `ratio` is not between 1 and 21.
 * @example
 * ```ts
 * ensureContrast('#c4b5fd', ['#ffffff'], 3); // a deeper lavender that reaches 3:1 on white
 * ```
 */
export function ensureContrast(hex: string, backgrounds: readonly string[], ratio: number): string {
  if (!(ratio >= 1 && ratio <= 21)) {
    throw new ThemeError('INVALID_CONTRAST_TARGET', `contrast target ${ratio} must be between 1 and 21`);
  }
  if (minContrast(hex, backgrounds) >= ratio) return hex;
  const start = hexToOklch(hex);
  const candidates = [searchToward(start, 0, backgrounds, ratio), searchToward(start, 1, backgrounds, ratio)]
    .filter((c): c is { hex: string; l: number } => c !== null)
    .sort((a, b) => Math.abs(a.l - start.l) - Math.abs(b.l - start.l));
  if (candidates[0]) return candidates[0].hex;
  const black = minContrast('#000000', backgrounds);
  const white = minContrast('#ffffff', backgrounds);
  return black >= white ? '#000000' : '#ffffff';
}

/**
 * Binary search between the colour's lightness and `end` (0 = black, 1 = white) for the closest
 * lightness that meets the ratio; `null` when even the end does not.
 */
function searchToward(
  start: Oklch,
  end: 0 | 1,
  backgrounds: readonly string[],
  ratio: number,
): { hex: string; l: number } | null {
  const at = (l: number) => oklchToHex({ ...start, l });
  const endHex = at(end);
  if (minContrast(endHex, backgrounds) < ratio) return null;
  let pass: { hex: string; l: number } = { hex: endHex, l: end };
  let fail = start.l;
  for (let i = 0; i < 24 && Math.abs(pass.l - fail) > 1e-4; i++) {
    const mid = (pass.l + fail) / 2;
    const hex = at(mid);
    if (minContrast(hex, backgrounds) >= ratio) pass = { hex, l: mid };
    else fail = mid;
  }
  return pass;
}
