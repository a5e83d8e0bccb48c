// Computes a tap's stored event, `[svc]` line and echo on the server, from the screen and the raw event.
// Every path that records a tap (the app, the in-chat view's svc_tap, a holder's tap) comes through here.

import { ServiceError } from '@screen-service/registry/kernel';
import type { ScreenRecord } from '@screen-service/registry/model';
import { type AddOp, checkTap, componentOn } from '@screen-service/screen-lines/catalog';
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
 * thread stores. The tap must carry only what the screen offered: its value and fields are checked against
 * the component as the screen's stored ops draw it (never against anything the client says about the
 * screen), by the catalog's rule (`checkTap` of @screen-service/screen-lines); anything else is refused
 * with `INVALID_INPUT` naming what the component accepts. The preset comes from the screen, never from the
 * caller; `line` and `echo` are computed. `serverFields` are added by the service itself after the check
 * (a tables card's outcome) and are not checked.
 *
 * @example
 * ```ts
 * const tap = computeTap(screen, { id: 'lunch', value: 'Soup' }, screenLines);
 * tap.line; // '[svc] lunch choose choice=Soup\n{...}'
 * computeTap(screen, { id: 'lunch', value: 'Pizza' }, screenLines);
 * // throws ServiceError INVALID_INPUT: 'choose "lunch" accepts one of: Soup, Salad; got "Pizza".'
 * ```
 */
export function computeTap(
  screen: ScreenRecord,
  raw: unknown,
  screenLines: ScreenLinesPort,
  serverFields: Record<string, unknown> = {},
): ComputedTap {
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
      { field: 'event.id' },
    );
  }
  const tap = screen.taps.find((t) => t.id === input.id);
  const component = tap && drawn(screen, tap.id, screenLines);
  if (!tap || !component) {
    throw new ServiceError(
      'NOT_ON_SCREEN',
      `No component "${input.id}" on screen ${screen.id}; its tap ids are: ${screen.taps.map((t) => t.id).join(', ') || 'none'}.`,
      { field: 'event.id' },
    );
  }
  const sent: Record<string, unknown> = {};
  // Defined, not assigned: a `__proto__` key of the JSON body stays a key (and is refused as a field).
  for (const [k, v] of Object.entries(input)) {
    if (!DERIVED.has(k))
      Object.defineProperty(sent, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  const verdict = checkTap(component, sent);
  if (!verdict.ok) {
    throw new ServiceError('INVALID_INPUT', verdict.message, {
      field: verdict.field,
      details: { accepts: verdict.accepts },
    });
  }
  const event = {
    id: tap.id,
    preset: tap.preset,
    value: verdict.value,
    screen: screen.id,
    ...verdict.fields,
    ...serverFields,
  };
  return {
    event,
    line: screenLines.formatTapLine(event),
    echo: screenLines.formatEcho(event),
    quiet: verdict.quiet || input.quiet === true,
  };
}

/** The component as the screen draws it: from its stored ops, or its stored lines when the ops lack it. */
function drawn(screen: ScreenRecord, id: string, screenLines: ScreenLinesPort): AddOp | undefined {
  return (
    componentOn(screen.ops, id) ?? componentOn(screenLines.parse(screen.lines, { screen: screen.id }).ops, id)
  );
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

/** The stored meta of a tap row: what the event says, and how it came (`via`); callers add their marks. */
export function tapMeta(tap: ComputedTap, via: string) {
  const { event } = tap;
  return { id: event.id, preset: event.preset, value: event.value, echo: tap.echo, via, event };
}
