// lookCss: an agent's look as CSS variables for light and dark, following the host or the device's scheme.
import { compilePalette, formatCssVariables } from '@screen-service/theme';

/** Options of {@link lookCss}. */
export interface LookCssOptions {
  /** The element the variables apply to (default `.svc-root`). */
  selector?: string;
  /** The agent's handle: seeds the look when it names no preset. */
  handle?: string;
  /** Less motion (`prefers-reduced-motion`). */
  reduceMotion?: boolean;
}

/**
 * Compiles a look into CSS: light variables on `selector`, dark ones when the device prefers dark, and
 * `data-scheme="light"|"dark"` on the element to follow a host's scheme instead (it wins over the device).
 *
 * @example
 * ```ts
 * style.textContent = lookCss({ preset: 'ocean' }, { selector: '.svc-root' });
 * root.dataset.scheme = hostContext.theme; // 'dark' follows the host
 * ```
 */
export function lookCss(look: unknown, options: LookCssOptions = {}): string {
  const selector = options.selector ?? '.svc-root';
  const { light, dark } = compilePalette(look, {
    ...(options.handle ? { handle: options.handle } : {}),
    ...(options.reduceMotion ? { reduceMotion: true } : {}),
  });
  return [
    formatCssVariables(light, selector),
    `@media (prefers-color-scheme: dark) {\n${formatCssVariables(dark, `${selector}:not([data-scheme="light"])`)}}\n`,
    formatCssVariables(dark, `${selector}[data-scheme="dark"]`),
  ].join('');
}

/**
 * Sets which scheme an element wears: `light` or `dark` (the host's), or `auto` (the device's).
 *
 * @example
 * ```ts
 * setScheme(document.documentElement, 'dark');
 * ```
 */
export function setScheme(element: HTMLElement, scheme: 'light' | 'dark' | 'auto'): void {
  if (scheme === 'auto') delete element.dataset.scheme;
  else element.dataset.scheme = scheme;
}
