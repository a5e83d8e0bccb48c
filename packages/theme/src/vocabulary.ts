// The look words: every word a look may use, as data (the README tables are written from these lists).

/** Preset names; a handle equal to one of them starts in that preset. */
export const PRESET_NAMES = [
  'studio',
  'paper',
  'ink',
  'garden',
  'ocean',
  'sunset',
  'candy',
  'midnight',
  'terminal',
] as const;
/** Corner rounding of controls and cards. */
export const RADIUS_WORDS = ['square', 'soft', 'round', 'pill'] as const;
/** System font stacks (no web fonts are loaded). */
export const FONT_WORDS = ['system', 'humanist', 'geometric', 'rounded', 'serif', 'mono'] as const;
/** Body and strong text weights. */
export const WEIGHT_WORDS = ['light', 'regular', 'medium', 'bold'] as const;
/** Motion bundles: each sets a pace, an ease, an enter and a pulse. */
export const MOTION_WORDS = ['still', 'calm', 'smooth', 'brisk', 'lively'] as const;
/** How long transitions take. */
export const PACE_WORDS = ['instant', 'quick', 'steady', 'slow'] as const;
/** The easing curve of transitions. */
export const EASE_WORDS = ['linear', 'gentle', 'snappy', 'spring'] as const;
/** How a new screen or line appears. */
export const ENTER_WORDS = ['none', 'fade', 'rise', 'slide', 'pop'] as const;
/** How a component that waits for the person (a staged pill, a pending answer) draws attention. */
export const PULSE_WORDS = ['off', 'soft', 'glow', 'beat'] as const;

/** doc2 `style.screen`. */
export const SCREEN_STYLES = ['chat', 'full'] as const;
/** doc2 `style.gallery`. */
export const GALLERY_STYLES = ['row', 'feed', 'row3d', 'grid'] as const;
/** doc2 `style.chart`. */
export const CHART_STYLES = ['line', 'bar', 'area', 'scatter', 'pie', 'donut'] as const;
/** doc2 `style.buttons`. */
export const BUTTON_STYLES = ['row', 'stack'] as const;
/** doc2 `by`: who made the last change. */
export const LOOK_AUTHORS = ['agent', 'user'] as const;

export type PresetName = (typeof PRESET_NAMES)[number];
export type RadiusWord = (typeof RADIUS_WORDS)[number];
export type FontWord = (typeof FONT_WORDS)[number];
export type WeightWord = (typeof WEIGHT_WORDS)[number];
export type MotionWord = (typeof MOTION_WORDS)[number];
export type PaceWord = (typeof PACE_WORDS)[number];
export type EaseWord = (typeof EASE_WORDS)[number];
export type EnterWord = (typeof ENTER_WORDS)[number];
export type PulseWord = (typeof PULSE_WORDS)[number];
export type ScreenStyle = (typeof SCREEN_STYLES)[number];
export type GalleryStyle = (typeof GALLERY_STYLES)[number];
export type ChartStyle = (typeof CHART_STYLES)[number];
export type ButtonStyle = (typeof BUTTON_STYLES)[number];
export type LookAuthor = (typeof LOOK_AUTHORS)[number];

/** doc2 `style`: layout choices the renderer reads (no colour). */
export interface LookStyle {
  screen?: ScreenStyle;
  gallery?: GalleryStyle;
  chart?: ChartStyle;
  buttons?: ButtonStyle;
}

/**
 * A cleaned look (doc2 "Look (theme object)"). Every key is optional; `{}` means "seed from the
 * handle". Hex colours are lowercase `#rrggbb`; `at` is a UTC ISO 8601 timestamp.
 */
export interface Look {
  preset?: PresetName;
  accent?: string;
  bg?: string;
  radius?: RadiusWord;
  font?: FontWord;
  weight?: WeightWord;
  motion?: MotionWord;
  pace?: PaceWord;
  ease?: EaseWord;
  enter?: EnterWord;
  pulse?: PulseWord;
  style?: LookStyle;
  at?: string;
  by?: LookAuthor;
}

/** The word keys of a look, each with its allowed words. */
export const LOOK_WORDS = {
  preset: PRESET_NAMES,
  radius: RADIUS_WORDS,
  font: FONT_WORDS,
  weight: WEIGHT_WORDS,
  motion: MOTION_WORDS,
  pace: PACE_WORDS,
  ease: EASE_WORDS,
  enter: ENTER_WORDS,
  pulse: PULSE_WORDS,
  by: LOOK_AUTHORS,
} as const;

/** The `style` keys, each with its allowed words. */
export const STYLE_WORDS = {
  screen: SCREEN_STYLES,
  gallery: GALLERY_STYLES,
  chart: CHART_STYLES,
  buttons: BUTTON_STYLES,
} as const;

/** The parts of `motion` that `pace`, `ease`, `enter` and `pulse` override one by one. */
export const MOTION_PARTS = ['pace', 'ease', 'enter', 'pulse'] as const;
