// Computes a tap's stored event, `[svc]` line and echo on the server, from the screen and the raw event.
import { ServiceError } from '@screen-service/registry/kernel';
import type { ScreenRecord } from '@screen-service/registry/model';
import type { ScreenLinesPort } from './screen-lines-port.js';

/** A tap after the server checked it against its screen. */
export interface ComputedTap {
  event: { id: string; preset: string; value: unknown; screen: string; [k: string]: unknown };
  line: string;
  echo: string;
  /** Quiet events (a timer starting, a checklist tick) stay on the screen and are never returned as answers. */
  quiet: boolean;
}

// Keys a client may not set: they are derived from the screen, or computed here.
const DERIVED = new Set(['id', 'preset', 'screen', 'line', 'echo', 'via', 'quiet']);

/**
 * Validates `raw` (an object with a string `id` naming a component of `screen`) and builds the event the
 * thread stores. The preset comes from the screen, never from the caller; `line` and `echo` are computed.
 *
 * @example
 * ```ts
 * const tap = computeTap(screen, { id: 'lunch', value: 'Pasta' }, screenLines);
 * tap.line; // '[svc] lunch choose choice=Pasta\n{...}'
 * ```
 */
export function computeTap(screen: ScreenRecord, raw: unknown, screenLines: ScreenLinesPort): ComputedTap {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ServiceError('INVALID_INPUT', 'event must be an object like {"id":"n1","value":"Yes"}.', {
      field: 'event',
    });
  }
  const input = raw as Record<string, unknown>;
  if (typeof input.id !== 'string' || input.id === '') {
    throw new ServiceError(
      'INVALID_INPUT',
      'event.id must name the tapped component (its tap id, e.g. n1).',
      {
        field: 'event.id',
      },
    );
  }
  const tap = screen.taps.find((t) => t.id === input.id);
  if (!tap) {
    throw new ServiceError(
      'NOT_ON_SCREEN',
      `No component "${input.id}" on screen ${screen.id}; its tap ids are: ${screen.taps.map((t) => t.id).join(', ') || 'none'}.`,
      { field: 'event.id' },
    );
  }
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (!DERIVED.has(k) && k !== 'value') extra[k] = v;
  const event = { id: tap.id, preset: tap.preset, value: input.value ?? null, screen: screen.id, ...extra };
  return {
    event,
    line: screenLines.formatTapLine(event),
    echo: screenLines.formatEcho(event),
    quiet: isQuiet(event, input.quiet === true),
  };
}

/**
 * Quiet events of the catalog: a timer starting, a checklist tick (an `{item, checked}` value); a view may
 * also mark an event quiet (a deck card turned). Quiet rows are written handled and never returned.
 */
export function isQuiet(event: { preset: string; value: unknown }, flagged: boolean): boolean {
  if (flagged) return true;
  if (event.preset === 'timer') return event.value === 'start';
  if (event.preset === 'checklist') {
    return (
      typeof event.value === 'object' &&
      event.value !== null &&
      !Array.isArray(event.value) &&
      'item' in event.value
    );
  }
  return false;
}
