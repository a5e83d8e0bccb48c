// The catalog: every component by name, in the order the guide lists them.
import {
  askComponent,
  buttonsComponent,
  checkinComponent,
  checklistComponent,
  chooseComponent,
  confirmComponent,
  deckComponent,
  formComponent,
  photoComponent,
  timerComponent,
} from './ask-components.js';
import { querySpec } from './query-spec.js';
import {
  chartComponent,
  dividerComponent,
  galleryComponent,
  imageComponent,
  linkComponent,
  mathComponent,
  progressComponent,
  statComponent,
  textComponent,
} from './show-components.js';
import type { ComponentSpec } from './types.js';

const entries: ComponentSpec[] = [
  textComponent,
  timerComponent,
  chooseComponent,
  confirmComponent,
  buttonsComponent,
  checkinComponent,
  checklistComponent,
  askComponent,
  formComponent,
  photoComponent,
  imageComponent,
  galleryComponent,
  deckComponent,
  chartComponent,
  statComponent,
  progressComponent,
  mathComponent,
  linkComponent,
  dividerComponent,
  querySpec,
];

/**
 * The component catalog as data: for each component its usage, arguments, settings, flags, zod props schema,
 * defaults, limits, events (with quiet ones marked) and whether it is staged.
 *
 * @example
 * ```ts
 * catalog.choose.usage;   // 'choose "<question>" <option>|<option>|... [+multi]'
 * catalog.timer.staged;   // true
 * Object.keys(catalog);   // ['text', 'timer', 'choose', ...]
 * ```
 */
export const catalog: Readonly<Record<string, ComponentSpec>> = Object.freeze(
  Object.fromEntries(entries.map((entry) => [entry.name, entry])),
);

/** Looks a component up by name (own keys only, so `constructor` is not a component). */
export function componentOf(name: string): ComponentSpec | undefined {
  return byName.get(name);
}

const byName = new Map(entries.map((entry) => [entry.name, entry]));
