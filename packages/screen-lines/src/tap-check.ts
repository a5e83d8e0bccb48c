// checkTap: a tap carries only what its screen offered. One check for the server (before it records a tap)
// and the renderer (before it sends one), from the component as drawn and the catalog's tap rules.
import { componentOf } from './catalog/index.js';
import type { AddOp } from './ops.js';

/** The answer of {@link checkTap}. */
export type TapCheck =
  | {
      ok: true;
      /** The value to keep (a +multi choice in the screen's order). */
      value: unknown;
      /** The event's other fields to keep: what the screen decides (a confirm's label, a timer's seconds). */
      fields: Record<string, unknown>;
      /** One of the catalog's quiet events (a timer started, a checklist tick, a deck card turned). */
      quiet: boolean;
    }
  | {
      ok: false;
      /** The field at fault: `event.value`, `event.label`, `event.id`... */
      field: string;
      /** What the component accepts, in words (`one of: Yes, No`). */
      accepts: string;
      /** `choose "ok" accepts one of: Yes, No; got "Pizza".` */
      message: string;
    };

// Fields of the envelope, not of the component's answer: the caller checks (or sets) them.
const ENVELOPE = new Set(['id', 'preset', 'screen', 'value']);

/**
 * Checks one tap against the component it names, as drawn (`component` with its patches applied, see
 * {@link componentOn}): a choose takes one of its options, a confirm true or false, a checkin a step of its
 * scale, a form its declared fields with their types, and so on (each component's rule sits beside its
 * catalog entry, `catalog[name].tap`). Fields other than `value` must be ones the component's events carry.
 * Never throws for any input.
 *
 * @example
 * ```ts
 * const { ops } = parse('choose@ok "Deploy to production?" Yes|No');
 * checkTap(ops[0] as AddOp, { value: 'Yes' });   // { ok: true, value: 'Yes', fields: {}, quiet: false }
 * checkTap(ops[0] as AddOp, { value: 'Pizza' }).message;
 * // 'choose "ok" accepts one of: Yes, No; got "Pizza".'
 * ```
 */
export function checkTap(component: AddOp, event: { value?: unknown; [key: string]: unknown }): TapCheck {
  const { id, preset } = component;
  const rule = componentOf(preset)?.tap;
  if (!rule) {
    return {
      ok: false,
      field: 'event.id',
      accepts: 'no taps',
      message: `${preset} "${id}" takes no taps; tap a component that asks something.`,
    };
  }
  const fields: Record<string, unknown> = {};
  // Defined, not assigned: a `__proto__` key sent as JSON stays a field (and is refused as one).
  for (const key of Object.keys(event)) {
    if (!ENVELOPE.has(key)) {
      Object.defineProperty(fields, key, {
        value: event[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  const props = (component.props ?? {}) as Record<string, unknown>;
  const value = Object.hasOwn(event, 'value') ? event.value : undefined;
  const verdict = rule(props, { value: value ?? null, fields });
  if (verdict.ok) return { ok: true, value: verdict.value, fields: verdict.fields, quiet: verdict.quiet };
  return {
    ok: false,
    field: verdict.field,
    accepts: verdict.accepts,
    message: `${preset} "${id}" accepts ${verdict.accepts}; got ${verdict.got}.`,
  };
}

/**
 * The component `id` of a screen's ops as the renderer draws it: its `add` op with the patch lines written
 * after it on the same screen applied in order (`prop=` puts a prop back to its default). Undefined when the
 * screen has no such component.
 *
 * @example
 * ```ts
 * componentOn(parse('choose@q "Pick" A|B\n@q options=A|B|C').ops, 'q')?.props.options; // ['A', 'B', 'C']
 * ```
 */
export function componentOn(ops: readonly unknown[], id: string): AddOp | undefined {
  let found: AddOp | undefined;
  for (const raw of ops) {
    const op = raw as { op?: unknown; id?: unknown; preset?: unknown; props?: unknown };
    if (op?.id !== id || typeof op.props !== 'object' || op.props === null) continue;
    if (op.op === 'add' && typeof op.preset === 'string' && found === undefined) {
      found = { ...(raw as AddOp), props: { ...(op.props as Record<string, unknown>) } };
    } else if (op.op === 'patch' && found) {
      const defaults = componentOf(found.preset)?.defaults ?? {};
      for (const [key, value] of Object.entries(op.props as Record<string, unknown>)) {
        if (key === '__proto__') continue;
        if (value !== null) found.props[key] = value;
        else if (Object.hasOwn(defaults, key)) found.props[key] = defaults[key];
        else delete found.props[key];
      }
    }
  }
  return found;
}
