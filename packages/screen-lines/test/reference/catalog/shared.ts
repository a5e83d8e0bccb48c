// Helpers and word lists shared by the catalog's component entries.

import type { EventSpec, SlotSpec } from './types.js';
import { z } from './zod.js';

export const text = (max: number, what: string) =>
  z.string().max(max, `${what} is too long (at most ${max} characters)`);
export const nonEmpty = (max: number, what: string) => text(max, what).min(1, `${what} is empty`);
export const url = z.string().regex(/^https?:\/\/\S+$/, 'needs a URL starting with https://');

export const QUESTION = 300;
export const OPTION = 80;

export const slot = (
  prop: string,
  kind: SlotSpec['kind'],
  required: boolean,
  hint: string,
  extra = {},
): SlotSpec => ({
  prop,
  kind,
  required,
  hint,
  ...extra,
});
export const ev = (when: string, quiet: boolean, example: EventSpec['example']): EventSpec => ({
  when,
  quiet,
  example,
});

/** Chart kinds shared by `chart` and `query ... as chart`. */
export const CHART_TYPES = ['line', 'bar', 'area', 'scatter', 'pie', 'donut'] as const;
/** Gallery views. */
export const GALLERY_VIEWS = ['row', 'feed', 'row3d', 'grid'] as const;
/** Form field types. */
export const FIELD_TYPES = ['text', 'long', 'number', 'date', 'bool', 'email'] as const;
