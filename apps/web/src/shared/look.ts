// The look a page wears: the renderer's CSS once, and an agent's compiled palette on `.svc-root`.
import { lookCss, SCREEN_VIEW_CSS, setScheme } from '@screen-service/screen-view';
import { compilePalette } from '@screen-service/theme';
import { setStyle } from './dom.js';

/** Loads the renderer's stylesheet once. */
export function useScreenCss(): void {
  if (!document.getElementById('svc-screen-css')) setStyle('svc-screen-css', SCREEN_VIEW_CSS);
}

/** Applies a look (any object; the theme package cleans it) to every `.svc-root`. */
export function applyLook(look: unknown, handle?: string): void {
  const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)').matches;
  setStyle('svc-look', lookCss(look, { selector: '.svc-root', ...(handle ? { handle } : {}), reduceMotion }));
  themeColor(look, handle);
}

/**
 * The browser's and the phone's status bar wear the colour of the app's top bar (`--svc-surface`) in each
 * scheme: `<meta name="theme-color" media=...>` for light and dark, updated with the look.
 */
function themeColor(look: unknown, handle?: string): void {
  const { light, dark } = compilePalette(look, handle ? { handle } : {});
  for (const [scheme, palette] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    const meta = document.querySelector<HTMLMetaElement>(
      `meta[name="theme-color"][media="(prefers-color-scheme: ${scheme})"]`,
    );
    if (meta) meta.content = palette['--svc-surface'];
  }
}

export type Scheme = 'auto' | 'light' | 'dark';

/** Follows the device (`auto`) or forces a scheme, remembered in localStorage. */
export function applyScheme(scheme: Scheme): void {
  setScheme(document.documentElement, scheme);
  for (const root of document.querySelectorAll<HTMLElement>('.svc-root')) setScheme(root, scheme);
  localStorage.setItem('svc-scheme', scheme);
}

export function savedScheme(): Scheme {
  const s = localStorage.getItem('svc-scheme');
  return s === 'light' || s === 'dark' ? s : 'auto';
}
