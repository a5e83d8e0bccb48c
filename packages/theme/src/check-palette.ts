// checkPalette: measures every guaranteed contrast pair of a compiled palette (tests, swatches, audits).
import { contrastRatio } from './contrast.js';
import { CONTRAST_RULES, type ContrastRule, type Palette } from './palette-variables.js';

/** One measured pair. */
export interface ContrastCheck extends ContrastRule {
  ratio: number;
  ok: boolean;
}

/**
 * Measures each of `CONTRAST_RULES` on a palette.
 *
 * @example
 * ```ts
 * checkPalette(compilePalette({ preset: 'candy' }).dark).every((check) => check.ok); // true
 * ```
 */
export function checkPalette(palette: Palette): ContrastCheck[] {
  return CONTRAST_RULES.map((rule) => {
    const ratio = contrastRatio(palette[rule.fg], palette[rule.bg]);
    return { ...rule, ratio, ok: ratio >= rule.min };
  });
}
