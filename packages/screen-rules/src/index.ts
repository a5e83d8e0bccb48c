// @screen-service/screen-rules: what a screen decides without a store (ADR 0292). Every export here is
// public API; @screen-service/core/threads re-exports the ones it always had.

export {
  type DeadlineInput,
  type DeadlinePlan,
  type DeadlineStep,
  type EscalationAction,
  MAX_DEADLINE_MS,
  MAX_OFFER_HOLDERS,
  MIN_DEADLINE_MS,
  parseDurationMs,
  planDeadline,
  readPlan,
} from './deadline-plan.js';
export {
  defaultScreenLines,
  type ScreenLinesError,
  type ScreenLinesPort,
  type ScreenLinesResult,
} from './screen-lines-port.js';
export { type ComputedTap, computeTap, isQuiet, tapMeta } from './tap-event.js';
export { optionalText, requireText, tapsOf } from './thread-input.js';
