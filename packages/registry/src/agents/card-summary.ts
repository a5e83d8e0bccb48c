// Cleaning a bridged agent's card summary (name and skills) before it is kept on the agent (ADR 0164).
import { ServiceError } from '../kernel/errors.js';
import type { AgentCardSummary } from '../model/records.js';

/** At most this many skills are kept; the rest are dropped (a card may list hundreds). */
export const MAX_CARD_SKILLS = 20;
const NAME_CHARS = 80;
const DESCRIPTION_CHARS = 200;

const oneLine = (s: string, max: number) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/**
 * Checks and trims a card summary: `null` clears; otherwise `{name, skills: [{name, description?}]}` with
 * one-line texts cut to length and at most {@link MAX_CARD_SKILLS} skills. A wrong shape is `INVALID_INPUT`.
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
  if (skills !== undefined && !Array.isArray(skills)) throw refuse();
  const kept: AgentCardSummary['skills'] = [];
  for (const s of (skills ?? []) as unknown[]) {
    if (typeof s !== 'object' || s === null) throw refuse();
    const { name: n, description: d } = s as { name?: unknown; description?: unknown };
    if (typeof n !== 'string' || (d !== undefined && typeof d !== 'string')) throw refuse();
    if (n.trim() === '' || kept.length >= MAX_CARD_SKILLS) continue;
    kept.push({
      name: oneLine(n, NAME_CHARS),
      ...(d && d.trim() !== '' ? { description: oneLine(d, DESCRIPTION_CHARS) } : {}),
    });
  }
  return { name: oneLine(name, NAME_CHARS), skills: kept };
}
