// Public API of @screen-service/theme: every export here is public and follows semver.

export { type ContrastCheck, checkPalette } from './check-palette.js';
export {
  type CleanCommandsResult,
  COMMAND_LIMITS,
  type CommandEntry,
  cleanCommandName,
  cleanCommands,
} from './clean-commands.js';
export { cleanLook, jsonByteLength, LOOK_KEYS, LOOK_MAX_BYTES } from './clean-look.js';
export { type CompiledPalettes, type CompilePaletteOptions, compilePalette } from './compile-palette.js';
export { CONTROL_CONTRAST, contrastRatio, relativeLuminance, TEXT_CONTRAST } from './contrast.js';
export { formatCssVariables } from './css-text.js';
export { ThemeError, type ThemeErrorCode } from './errors.js';
export { ensureContrast } from './guardrail.js';
export { hashString } from './hash.js';
export { isHex } from './hex.js';
export { type MergeLookOptions, mergeLook } from './merge-look.js';
export {
  CHART_SERIES,
  CONTRAST_RULES,
  type ContrastRule,
  PALETTE_VARIABLES,
  type Palette,
  type PaletteVariable,
} from './palette-variables.js';
export { DEFAULT_PRESET, getPreset, isPresetName, PRESETS, type Preset } from './presets.js';
export { DEFAULT_STYLE, type ResolvedLook, type ResolveLookOptions, resolveLook } from './resolve-look.js';
export {
  AGENT_COLOR_HEX,
  AGENT_COLORS,
  type AgentColor,
  seedAccent,
  seedColor,
  seedLook,
} from './seed-look.js';
export { normalizeTimestamp, parseTimestamp } from './timestamp.js';
export {
  EASE_TOKENS,
  ENTER_TOKENS,
  FONT_TOKENS,
  MOTION_TOKENS,
  PACE_TOKENS,
  PULSE_TOKENS,
  RADIUS_TOKENS,
  WEIGHT_TOKENS,
} from './tokens.js';
export { hasVisibleText, type VisibleTextOptions, visibleText } from './visible-text.js';
export {
  BUTTON_STYLES,
  type ButtonStyle,
  CHART_STYLES,
  type ChartStyle,
  EASE_WORDS,
  type EaseWord,
  ENTER_WORDS,
  type EnterWord,
  FONT_WORDS,
  type FontWord,
  GALLERY_STYLES,
  type GalleryStyle,
  LOOK_AUTHORS,
  LOOK_WORDS,
  type Look,
  type LookAuthor,
  type LookStyle,
  MOTION_PARTS,
  MOTION_WORDS,
  type MotionWord,
  PACE_WORDS,
  type PaceWord,
  PRESET_NAMES,
  type PresetName,
  PULSE_WORDS,
  type PulseWord,
  RADIUS_WORDS,
  type RadiusWord,
  SCREEN_STYLES,
  type ScreenStyle,
  STYLE_WORDS,
  WEIGHT_WORDS,
  type WeightWord,
} from './vocabulary.js';
