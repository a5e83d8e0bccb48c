// The shape of a catalog entry: everything the parser, the formatter, the guide and the renderer read.
import type { z } from 'zod';
import type { TapEvent } from '../ops.js';

/**
 * How a positional argument is read:
 * `rest` the rest of the line as written; `text` words or one quoted string; `options` `a|b|"c d"`;
 * `duration` `90s`, `5m`, `1h30m`; `word` one of `words`; `url` one http(s) URL; `urls` several;
 * `fields` `key:type ...`; `data` `label=number|...`; `amount` `3/10` or `40%`; `value` a number or a word.
 */
export type SlotKind =
  | 'rest'
  | 'text'
  | 'options'
  | 'duration'
  | 'word'
  | 'url'
  | 'urls'
  | 'fields'
  | 'data'
  | 'amount'
  | 'value';

/** A positional argument; its value lands in `props[prop]`. */
export interface SlotSpec {
  prop: string;
  kind: SlotKind;
  required: boolean;
  /** Placeholder shown in the usage line, e.g. `"<question>"`. */
  hint: string;
  words?: readonly string[];
  /** Fewest and most items for `options`, `urls`, `fields`, `data`. */
  min?: number;
  max?: number;
}

/** A `name=value` setting. */
export interface SettingSpec {
  name: string;
  kind: 'word' | 'text' | 'int' | 'number' | 'list';
  words?: readonly string[];
  hint: string;
}

/** A `+name` flag; present means `props[name] = true`. */
export interface FlagSpec {
  name: string;
  hint: string;
}

/** One kind of event a tap on the component produces. */
export interface EventSpec {
  /** What the person did. */
  when: string;
  /** Quiet events stay on the screen and never reach the agent. */
  quiet: boolean;
  example: TapEvent;
}

/** A tap as a component's rule reads it: its value and its other fields (`id`, `preset`, `screen` left out). */
export interface TapInput {
  value: unknown;
  fields: Readonly<Record<string, unknown>>;
}

/**
 * A rule's verdict on one tap. Accepted: the value and fields to keep (the rule may add what the screen
 * decides, such as a confirm's label, and drops what is not the view's to say) and whether the event is one
 * of the quiet ones. Refused: the field at fault (`event.value`, `event.label`...), what the screen accepts
 * in words (`one of: Yes, No`) and what was sent, described (`"Pizza"`).
 */
export type TapRuleResult =
  | { ok: true; quiet: boolean; value: unknown; fields: Record<string, unknown> }
  | { ok: false; field: string; accepts: string; got: string };

/**
 * Checks a tap on a component drawn with `props` (patches applied): it passes only when the renderer could
 * have sent it for that screen.
 */
export type TapRule = (props: Readonly<Record<string, unknown>>, tap: TapInput) => TapRuleResult;

/** A component of the catalog. */
export interface ComponentSpec {
  name: string;
  summary: string;
  usage: string;
  examples: readonly string[];
  slots: readonly SlotSpec[];
  settings: readonly SettingSpec[];
  flags: readonly FlagSpec[];
  /** zod schema of the props after parsing (limits included). */
  props: z.ZodType;
  /** Props a line may leave out, with the value they then take. */
  defaults: Readonly<Record<string, unknown>>;
  /** Limits as data, for the guide and for callers. */
  limits: Readonly<Record<string, number>>;
  /** Staged components start as a pill so a question on the same screen stays visible. */
  staged: boolean;
  /** The `<key>` of the tap line `[svc] <id> <preset> <key>=<value>`. */
  tapKey: string;
  events: readonly EventSpec[];
  /**
   * What a tap on it may carry; absent for components that take no taps. The server checks every tap with it
   * before recording it, and the renderer before sending (see `checkTap`).
   */
  tap?: TapRule;
}
