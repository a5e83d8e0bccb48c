// The CSS custom properties a compiled palette sets, and the contrast each colour pair must reach.
import { CONTROL_CONTRAST, TEXT_CONTRAST } from './contrast.js';

/** How many chart series colours a palette carries (`--svc-chart-1` ... `--svc-chart-6`). */
export const CHART_SERIES = 6;

/** Every variable a palette sets, with what the renderer uses it for. Colours are `#rrggbb`. */
export const PALETTE_VARIABLES = {
  '--svc-scheme': '`light` or `dark`; set `color-scheme` from it',
  '--svc-bg': 'page and thread background',
  '--svc-surface': 'cards, screens and chat bubbles on the background',
  '--svc-surface-alt': 'input fields, table stripes, hovered rows',
  '--svc-text': 'body text (4.5:1 on bg, surface, surface-alt, accent-soft)',
  '--svc-text-muted': 'secondary text: captions, timestamps, hints (4.5:1 like body text)',
  '--svc-placeholder': 'placeholder text in an empty field (4.5:1 on bg, surface, surface-alt)',
  '--svc-accent':
    'filled controls: primary buttons, selected chips, toggles, progress (3:1 on bg and surface)',
  '--svc-on-accent': 'text and icons on an accent fill (4.5:1 on accent)',
  '--svc-accent-text': 'links and accent-coloured text (4.5:1 on bg, surface, surface-alt)',
  '--svc-accent-soft': 'quiet accent tint behind selected rows and chips (body text stays 4.5:1 on it)',
  '--svc-track': 'the unfilled part of a progress bar (the accent fill reaches 3:1 on it)',
  '--svc-border':
    'control boundaries: inputs, checkboxes, outlined buttons (3:1 on bg, surface, surface-alt)',
  '--svc-divider': 'decorative hairlines between rows (no contrast requirement; never the only cue)',
  '--svc-focus': 'keyboard focus ring (3:1 on bg, surface, surface-alt)',
  '--svc-good': 'good news text: a stat moving the right way, success (4.5:1 on bg, surface, surface-alt)',
  '--svc-bad': 'bad news text: a stat moving the wrong way, errors (4.5:1 on bg, surface, surface-alt)',
  '--svc-chart-1': 'chart series 1, the accent hue (3:1 on bg and surface)',
  '--svc-chart-2': 'chart series 2 (3:1 on bg and surface)',
  '--svc-chart-3': 'chart series 3 (3:1 on bg and surface)',
  '--svc-chart-4': 'chart series 4 (3:1 on bg and surface)',
  '--svc-chart-5': 'chart series 5 (3:1 on bg and surface)',
  '--svc-chart-6': 'chart series 6 (3:1 on bg and surface)',
  '--svc-shadow': 'box-shadow of raised cards and sheets',
  '--svc-radius': 'corner radius of controls',
  '--svc-radius-card': 'corner radius of cards, screens and sheets',
  '--svc-font': 'body font stack (system fonts only)',
  '--svc-font-mono': 'monospace stack for code and numbers',
  '--svc-weight': 'body font weight',
  '--svc-weight-strong': 'headings, buttons, emphasis',
  '--svc-duration-fast': 'small state changes (hover, press)',
  '--svc-duration': 'most transitions',
  '--svc-duration-slow': 'large moves (sheets, screens entering)',
  '--svc-ease': 'easing of most transitions',
  '--svc-ease-emphasis': 'easing of things arriving (may overshoot)',
  '--svc-enter-opacity': 'opacity an entering screen or line starts from (animate to 1)',
  '--svc-enter-transform': 'transform an entering screen or line starts from (animate to none)',
  '--svc-pulse-duration': 'one pulse cycle of a waiting component; 0ms = no pulse',
  '--svc-pulse-scale': 'how much a pulsing component grows at the peak',
  '--svc-pulse-ring': 'width of the accent ring a pulsing component shows at the peak',
} as const;

/** The name of a palette variable. */
export type PaletteVariable = keyof typeof PALETTE_VARIABLES;

/** One compiled scheme: every {@link PALETTE_VARIABLES} name to its CSS value. */
export type Palette = Record<PaletteVariable, string>;

/** A contrast the guardrails guarantee: `fg` on `bg` reaches `min`. */
export interface ContrastRule {
  fg: PaletteVariable;
  bg: PaletteVariable;
  min: number;
}

const rules = (fg: PaletteVariable, bgs: PaletteVariable[], min: number): ContrastRule[] =>
  bgs.map((bg) => ({ fg, bg, min }));
const GROUND: PaletteVariable[] = ['--svc-bg', '--svc-surface', '--svc-surface-alt'];
const TEXT_GROUND: PaletteVariable[] = [...GROUND, '--svc-accent-soft'];
const CHART_VARIABLES = Array.from(
  { length: CHART_SERIES },
  (_, i) => `--svc-chart-${i + 1}` as PaletteVariable,
);

/** Every contrast pair a compiled palette meets, in light and in dark. */
export const CONTRAST_RULES: readonly ContrastRule[] = [
  ...rules('--svc-text', TEXT_GROUND, TEXT_CONTRAST),
  ...rules('--svc-text-muted', TEXT_GROUND, TEXT_CONTRAST),
  ...rules('--svc-accent-text', GROUND, TEXT_CONTRAST),
  ...rules('--svc-on-accent', ['--svc-accent'], TEXT_CONTRAST),
  ...rules('--svc-placeholder', GROUND, TEXT_CONTRAST),
  // A card of a group sits on surface-alt, and a stat's change inside it is good/bad text.
  ...rules('--svc-good', GROUND, TEXT_CONTRAST),
  ...rules('--svc-bad', GROUND, TEXT_CONTRAST),
  ...rules('--svc-accent', ['--svc-bg', '--svc-surface', '--svc-track'], CONTROL_CONTRAST),
  ...rules('--svc-border', GROUND, CONTROL_CONTRAST),
  ...rules('--svc-focus', GROUND, CONTROL_CONTRAST),
  ...CHART_VARIABLES.flatMap((v) => rules(v, ['--svc-bg', '--svc-surface'], CONTROL_CONTRAST)),
];
