// What each look word means in CSS: the values compilePalette writes into its custom properties.
import type {
  EaseWord,
  EnterWord,
  FontWord,
  MotionWord,
  PaceWord,
  PulseWord,
  RadiusWord,
  WeightWord,
} from './vocabulary.js';

/** Corner radius of controls (`control`) and of cards and screens (`card`). */
export const RADIUS_TOKENS: Record<RadiusWord, { control: string; card: string }> = {
  square: { control: '2px', card: '4px' },
  soft: { control: '6px', card: '12px' },
  round: { control: '12px', card: '20px' },
  pill: { control: '999px', card: '24px' },
};

/** Font stacks of fonts that ship with common systems; nothing is downloaded. */
export const FONT_TOKENS: Record<FontWord, string> = {
  system: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif',
  humanist: 'Seravek, "Gill Sans Nova", Ubuntu, Calibri, "DejaVu Sans", "Noto Sans", system-ui, sans-serif',
  geometric:
    'Avenir, "Avenir Next", Montserrat, Corbel, "URW Gothic", "Century Gothic", system-ui, sans-serif',
  rounded:
    'ui-rounded, "SF Pro Rounded", "Hiragino Maru Gothic ProN", Quicksand, Comfortaa, Manjari, "Arial Rounded MT", system-ui, sans-serif',
  serif: 'Charter, "Bitstream Charter", "Sitka Text", Cambria, Georgia, "Noto Serif", serif',
  mono: 'ui-monospace, "SF Mono", "Cascadia Code", "Source Code Pro", Menlo, Consolas, "DejaVu Sans Mono", monospace',
};

/** Monospace stack for code and tables of numbers, whatever the body font. */
export const MONO_STACK = FONT_TOKENS.mono;

/** Body and strong (headings, buttons) font weights. */
export const WEIGHT_TOKENS: Record<WeightWord, { body: number; strong: number }> = {
  light: { body: 300, strong: 500 },
  regular: { body: 400, strong: 600 },
  medium: { body: 500, strong: 700 },
  bold: { body: 600, strong: 800 },
};

/** What each motion word sets; `pace`, `ease`, `enter` and `pulse` override one part each. */
export const MOTION_TOKENS: Record<
  MotionWord,
  { pace: PaceWord; ease: EaseWord; enter: EnterWord; pulse: PulseWord }
> = {
  still: { pace: 'instant', ease: 'linear', enter: 'none', pulse: 'off' },
  calm: { pace: 'slow', ease: 'gentle', enter: 'fade', pulse: 'soft' },
  smooth: { pace: 'steady', ease: 'gentle', enter: 'rise', pulse: 'soft' },
  brisk: { pace: 'quick', ease: 'snappy', enter: 'slide', pulse: 'off' },
  lively: { pace: 'steady', ease: 'spring', enter: 'pop', pulse: 'beat' },
};

/** Transition durations: small changes (`fast`), most (`base`), large moves (`slow`). */
export const PACE_TOKENS: Record<PaceWord, { fast: string; base: string; slow: string }> = {
  instant: { fast: '0ms', base: '0ms', slow: '0ms' },
  quick: { fast: '80ms', base: '140ms', slow: '220ms' },
  steady: { fast: '120ms', base: '200ms', slow: '320ms' },
  slow: { fast: '180ms', base: '300ms', slow: '480ms' },
};

/** Easing curves: `ease` for most transitions, `emphasis` for things arriving. */
export const EASE_TOKENS: Record<EaseWord, { ease: string; emphasis: string }> = {
  linear: { ease: 'linear', emphasis: 'linear' },
  gentle: { ease: 'cubic-bezier(0.4, 0, 0.2, 1)', emphasis: 'cubic-bezier(0.2, 0, 0, 1)' },
  snappy: { ease: 'cubic-bezier(0.3, 0, 0, 1)', emphasis: 'cubic-bezier(0.1, 0.9, 0.2, 1)' },
  spring: { ease: 'cubic-bezier(0.3, 0, 0.2, 1)', emphasis: 'cubic-bezier(0.34, 1.56, 0.64, 1)' },
};

/** Where an entering element starts (it animates to opacity 1 and no transform). */
export const ENTER_TOKENS: Record<EnterWord, { opacity: string; transform: string }> = {
  none: { opacity: '1', transform: 'none' },
  fade: { opacity: '0', transform: 'none' },
  rise: { opacity: '0', transform: 'translateY(8px)' },
  slide: { opacity: '0', transform: 'translateX(16px)' },
  pop: { opacity: '0', transform: 'scale(0.94)' },
};

/** One pulse cycle: its length, how much the element grows, and the width of a glowing ring. */
export const PULSE_TOKENS: Record<PulseWord, { duration: string; scale: string; ring: string }> = {
  off: { duration: '0ms', scale: '1', ring: '0px' },
  soft: { duration: '2400ms', scale: '1.015', ring: '0px' },
  glow: { duration: '2000ms', scale: '1', ring: '6px' },
  beat: { duration: '1100ms', scale: '1.05', ring: '3px' },
};
