// What every component builder gets: the document, the tap callback and the services the page provides.
import type { AddOp, TapEvent } from '@screen-service/screen-lines/catalog';
import { h } from './dom.js';
import type { ScreenViewOptions } from './types.js';

/** The renderer's per-screen context (internal). */
export interface RenderContext {
  doc: Document;
  options: ScreenViewOptions;
  now: () => number;
  /**
   * An element id unique in the document: this render's scope (the screen id and, when that screen is drawn
   * more than once in the page, a count), the component's id and `part`. Ids, `for` and ARIA references are
   * built only with it, so two screens that both number their components from n1 never share an id.
   */
  id(op: AddOp, part: string): string;
  /** Reports a tap on `op` with `value` and extra event fields. */
  tap(op: AddOp, value: unknown, extra?: Record<string, unknown>, quiet?: boolean): void;
  /** Registers a cleanup (timers) run by `destroy()` and before a component is redrawn. */
  onDestroy(op: AddOp, fn: () => void): void;
}

/** Builds a component's frame: `<section class="svc-c svc-<preset>" data-id data-preset>`. */
export function frame(
  ctx: RenderContext,
  op: AddOp,
  ...children: (Node | string | false | null | undefined)[]
): HTMLElement {
  return h(
    ctx.doc,
    'section',
    { class: `svc-c svc-${op.preset}`, 'data-id': op.id, 'data-preset': op.preset },
    ...children,
  );
}

/** A button; `primary` fills it with the accent. */
export function button(
  ctx: RenderContext,
  label: string,
  onClick: (el: HTMLButtonElement) => void,
  attrs: Record<string, string | boolean | undefined> = {},
): HTMLButtonElement {
  const el = h(ctx.doc, 'button', { type: 'button', class: 'svc-btn', ...attrs }, label);
  el.addEventListener('click', () => onClick(el));
  return el;
}

/** A heading-like line for a question or title (referenced by `aria-labelledby` as `ctx.id(op, 'q')`). */
export function question(ctx: RenderContext, op: AddOp, text: string): HTMLElement {
  return h(ctx.doc, 'p', { class: 'svc-q', id: ctx.id(op, 'q') }, text);
}

/** Reads a string prop. */
export const str = (props: Record<string, unknown>, key: string): string => {
  const v = props[key];
  return typeof v === 'string' ? v : '';
};

/** Reads a string-list prop. */
export const list = (props: Record<string, unknown>, key: string): string[] => {
  const v = props[key];
  return Array.isArray(v) ? v.map(String) : [];
};

/** Reads a number prop. */
export const num = (props: Record<string, unknown>, key: string): number | undefined => {
  const v = props[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
};

/** True when a tap ends the component (it is then drawn answered); quiet taps and row changes do not. */
export function endsComponent(event: TapEvent, quiet: boolean): boolean {
  return !quiet && !(event.preset === 'query' && event.op === 'row');
}
