// Cleaning a bridged agent's card summary (name and skills) before it is kept on the agent (ADR 0164).
import { visibleText } from '@screen-service/theme';
import { ServiceError } from '../kernel/errors.js';
import type { AgentCardSummary } from '../model/records.js';

/** At most this many skills are kept; the rest are dropped (a card may list hundreds). */
export const MAX_CARD_SKILLS = 20;
const NAME_CHARS = 80;
const DESCRIPTION_CHARS = 200;

// One line a person reads (the rule for every label from an agent or a host): controls such as ESC, bidi
// controls such as U+202E and invisible characters removed, cut to `max`; null when nothing visible is left.
const oneLine = (s: string, max: number) => visibleText(s, { max });

/**
 * Checks and trims a card summary: `null` clears; otherwise `{name, skills: [{name, description?}]}` with
 * one-line texts cut to length (controls, direction characters and invisible text removed) and at most
 * {@link MAX_CARD_SKILLS} skills; a skill whose name shows nothing is dropped. A wrong shape, or a card name
 * with no visible character, is `INVALID_INPUT`.
 *
 * @example
 * ```ts
 * cleanCardSummary({ name: 'Weather', skills: [{ name: 'Forecast', description: 'Says the weather' }] });
 * ```
 */
export function cleanCardSummary(value: unknown): AgentCardSummary | null {
  if (value === null) return null;
  const refuse = () =>
    new ServiceError(
      'INVALID_INPUT',
      'card must be null or {name, skills: [{name, description?}]} with text values (from the agent card).',
      { field: 'card' },
    );
  if (typeof value !== 'object' || Array.isArray(value)) throw refuse();
  const { name, skills } = value as { name?: unknown; skills?: unknown };
  if (typeof name !== 'string' || name.trim() === '') throw refuse();
  const shown = oneLine(name, NAME_CHARS);
  if (shown === null) {
    throw new ServiceError(
      'INVALID_INPUT',
      "card.name has no visible character (only spaces, joiners, marks or invisible characters); send the agent card's name.",
      { field: 'card' },
    );
  }
  if (skills !== undefined && !Array.isArray(skills)) throw refuse();
  const kept: AgentCardSummary['skills'] = [];
  for (const s of (skills ?? []) as unknown[]) {
    if (typeof s !== 'object' || s === null) throw refuse();
    const { name: n, description: d } = s as { name?: unknown; description?: unknown };
    if (typeof n !== 'string' || (d !== undefined && typeof d !== 'string')) throw refuse();
    const skill = oneLine(n, NAME_CHARS);
    if (skill === null || kept.length >= MAX_CARD_SKILLS) continue;
    const description = d === undefined ? null : oneLine(d, DESCRIPTION_CHARS);
    kept.push({ name: skill, ...(description === null ? {} : { description }) });
  }
  return { name: shown, skills: kept };
}
