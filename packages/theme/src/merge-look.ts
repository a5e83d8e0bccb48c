// mergeLook: apply a theme line or a person's pick onto the saved look, honouring `at` and `by`.
import { cleanLook, LOOK_KEYS } from './clean-look.js';
import { ThemeError } from './errors.js';
import { normalizeTimestamp, parseTimestamp } from './timestamp.js';
import { type Look, MOTION_PARTS } from './vocabulary.js';

/** Options of {@link mergeLook}. */
export interface MergeLookOptions {
  /**
   * When the incoming change was made (for a theme line: its message's time), used when the incoming
   * look carries no `at` of its own. ISO 8601 with a zone.
   */
  at?: string;
}

/** Keys a new `preset` resets unless the same change sets them again (the preset is a whole recipe). */
const PRESET_PARTS = LOOK_KEYS.filter(
  (key) => key !== 'preset' && key !== 'style' && key !== 'at' && key !== 'by',
);

/**
 * Applies `incoming` (a theme line from the agent, or a pick by the person) onto `current`, both
 * cleaned first. Rules (doc2 "Look"):
 * - a change older than the current `at` never overrides it (the current look comes back as is);
 * - a person's pick (`by: "user"`) holds against an agent's change unless that change is known to be
 *   newer (both times known, the change's later);
 * - otherwise the incoming keys win one by one; `style` merges by key; a `motion` with none of
 *   `pace`/`ease`/`enter`/`pulse` clears the current ones; a `preset` clears the current colours,
 *   shape, type and motion that the same change does not set;
 * - the result carries the change's `at` (when known) and `by` (`agent` unless it says `user`).
 *
 * @throws {ThemeError} `INVALID_TIMESTAMP` when `options.at` is given and is not ISO 8601 with a zone.
 * @example
 * ```ts
 * const mine = { accent: '#355c8c', at: '2026-11-21T10:00:00Z', by: 'user' };
 * mergeLook(mine, { accent: '#e0674f', by: 'agent' }, { at: '2026-11-21T09:00:00Z' }).accent; // '#355c8c'
 * mergeLook(mine, { accent: '#e0674f', by: 'agent' }, { at: '2026-11-21T11:00:00Z' }).accent; // '#e0674f'
 * ```
 */
export function mergeLook(current: unknown, incoming: unknown, options: MergeLookOptions = {}): Look {
  const base = cleanLook(current);
  const change = cleanLook(incoming);
  let fallbackAt: string | undefined;
  if (options.at !== undefined) {
    fallbackAt = normalizeTimestamp(options.at) ?? undefined;
    if (fallbackAt === undefined) {
      throw new ThemeError(
        'INVALID_TIMESTAMP',
        `options.at ${JSON.stringify(options.at)} is not an ISO 8601 date-time with a zone, e.g. 2026-11-21T22:15:00Z`,
      );
    }
  }
  const changeAt = change.at ?? fallbackAt;
  const changeBy = change.by ?? 'agent';
  const changeMs = changeAt === undefined ? null : parseTimestamp(changeAt);
  const baseMs = base.at === undefined ? null : parseTimestamp(base.at);

  if (changeMs !== null && baseMs !== null && changeMs < baseMs) return base;
  const changeIsNewer = changeMs !== null && baseMs !== null && changeMs > baseMs;
  if (base.by === 'user' && changeBy === 'agent' && !changeIsNewer) return base;

  const next: Look = { ...base };
  if (change.preset !== undefined) for (const key of PRESET_PARTS) delete next[key];
  if (change.motion !== undefined) for (const key of MOTION_PARTS) delete next[key];
  Object.assign(next, change);
  if (base.style !== undefined && change.style !== undefined) next.style = { ...base.style, ...change.style };
  if (changeAt !== undefined) next.at = changeAt;
  next.by = changeBy;
  return cleanLook(next);
}
