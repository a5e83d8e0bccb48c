// Which screens a notification can answer with one tap (issue 39, ADR 0257): a screen whose only answerable
// component is a single-pick choose, a confirm, buttons or a check-in with few enough steps. Its choices
// become the notification's actions; anything else (a form, a photo, several questions) opens the app.
import type { MessageRecord, ScreenRecord } from '@screen-service/registry/model';
import { catalog, componentOn } from '@screen-service/screen-lines/catalog';

/** Actions a payload offers at most; a service worker shows them only when they fit `Notification.maxActions`. */
export const MAX_NOTIFICATION_ACTIONS = 4;

/** One action of a notification: the button's words and the value its tap sends. */
export interface NotificationChoice {
  /** The action id the service worker gets back (`a0`, `a1`, ...). */
  action: string;
  title: string;
  value: string | number | boolean;
}

/** A screen answerable from its notification: the component its tap answers and the values offered. */
export interface ScreenActions {
  tapId: string;
  preset: string;
  choices: NotificationChoice[];
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

function valuesOf(
  preset: string,
  props: Record<string, unknown>,
): [string, string | number | boolean][] | null {
  switch (preset) {
    case 'choose':
      return props.multi === true ? null : strings(props.options).map((o) => [o, o]);
    case 'buttons':
      return strings(props.options).map((o) => [o, o]);
    case 'confirm': {
      const [yes = 'Yes', no = 'No'] = strings(props.options);
      return [
        [yes, true],
        [no, false],
      ];
    }
    case 'checkin': {
      const kind = typeof props.kind === 'string' ? props.kind : 'scale';
      const lo = typeof props.min === 'number' ? props.min : 1;
      const hi = typeof props.max === 'number' ? props.max : kind === 'scale' ? 10 : 5;
      if (hi < lo || hi - lo + 1 > MAX_NOTIFICATION_ACTIONS) return null;
      return Array.from({ length: hi - lo + 1 }, (_, i) => [String(lo + i), lo + i]);
    }
    default:
      return null;
  }
}

/**
 * The notification's actions for a screen, or null when it takes more than one tap to answer.
 *
 * @example
 * ```ts
 * screenActions(screen); // { tapId: 'go', preset: 'confirm', choices: [{ action: 'a0', title: 'Yes', value: true }, ...] }
 * ```
 */
export function screenActions(screen: ScreenRecord): ScreenActions | null {
  const answerable = screen.taps.filter((t) => catalog[t.preset]?.events.some((e) => !e.quiet) ?? false);
  if (answerable.length !== 1) return null;
  const tap = answerable[0]!;
  const component = componentOn(screen.ops, tap.id);
  if (!component) return null;
  const values = valuesOf(component.preset, component.props);
  if (!values || values.length === 0 || values.length > MAX_NOTIFICATION_ACTIONS) return null;
  return {
    tapId: tap.id,
    preset: component.preset,
    choices: values.map(([title, value], i) => ({ action: `a${i}`, title, value })),
  };
}

/** Where an answered screen's notification says it was answered, from the answering tap row. */
export function staleBody(tap: MessageRecord): string {
  const echo = typeof tap.meta.echo === 'string' && tap.meta.echo !== '' ? `: ${tap.meta.echo}` : '';
  if (tap.meta.decided_by === 'agent') return 'Withdrawn by the agent'; // ADR 0279
  // Decided at the screen's deadline (ADR 0260): a default chosen, or the screen expired.
  if (tap.meta.decided_by === 'default') {
    return tap.meta.preset === 'deadline' ? 'Expired: nobody answered in time' : `Chosen by default${echo}`;
  }
  const where =
    tap.meta.via === 'notification'
      ? 'on another device'
      : tap.meta.via === 'mcp-app'
        ? 'in the chat'
        : 'in the app';
  return `Answered ${where}${echo}`;
}
