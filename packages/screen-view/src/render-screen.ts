// renderScreen: parser ops to one screen element; taps become catalog events, patches and answers redraw in place.
import {
  type AddOp,
  catalog,
  formatEcho,
  formatTapLine,
  type GroupOp,
  type PatchOp,
  type TapEvent,
} from '@screen-service/screen-lines/catalog';
import { drawButtons, drawCheckin, drawChoose, drawConfirm, lightStars } from './components/answers.js';
import {
  drawDivider,
  drawGallery,
  drawImage,
  drawInlineChart,
  drawLink,
  drawMath,
  drawProgress,
  drawStat,
  drawText,
} from './components/display.js';
import { drawAsk, drawChecklist, drawForm, drawPhoto } from './components/inputs.js';
import { drawQuery } from './components/query.js';
import { drawDeck, drawTimer } from './components/staged.js';
import { endsComponent, type RenderContext } from './context.js';
import { h } from './dom.js';
import { ScreenViewError } from './errors.js';
import type { ScreenHandle, ScreenOps, ScreenTap, ScreenViewOptions } from './types.js';

type Draw = (ctx: RenderContext, op: AddOp) => HTMLElement;

/** One drawer per catalog component; a test checks every catalog entry has one. */
const DRAWERS: Readonly<Record<string, Draw>> = {
  text: drawText,
  timer: drawTimer,
  choose: drawChoose,
  confirm: drawConfirm,
  buttons: drawButtons,
  checkin: drawCheckin,
  checklist: drawChecklist,
  ask: drawAsk,
  form: drawForm,
  photo: drawPhoto,
  image: drawImage,
  gallery: drawGallery,
  deck: drawDeck,
  chart: drawInlineChart,
  stat: drawStat,
  progress: drawProgress,
  math: drawMath,
  link: drawLink,
  divider: drawDivider,
  query: drawQuery,
};

/**
 * The components this renderer draws (every entry of the screen-lines catalog). Marked pure, so a page
 * that imports only the CSS helpers (the OAuth consent page) leaves the drawers out of its bundle.
 *
 * @example
 * ```ts
 * DRAWN_COMPONENTS.includes('choose'); // true
 * ```
 */
export const DRAWN_COMPONENTS: readonly string[] = /* @__PURE__ */ Object.freeze(
  /* @__PURE__ */ Object.keys(DRAWERS),
);

/** How many screens each document has drawn under each screen id (ids stay unique when one is drawn twice). */
const drawnScreens = /* @__PURE__ */ new WeakMap<Document, Map<string, number>>();

/**
 * The id prefix of one render: `svc-<screen>` the first time a screen id is drawn in a document, then
 * `svc-<screen>-2`, `-3`... so a screen drawn again (a thread opened twice, a playground redrawing on every
 * key, two hosts passing the same id) never repeats an id.
 */
function scopeOf(doc: Document, screen: string | undefined): string {
  const name = (screen ?? 'screen').replace(/[^A-Za-z0-9_-]/g, '_') || 'screen';
  let counts = drawnScreens.get(doc);
  if (!counts) {
    counts = new Map();
    drawnScreens.set(doc, counts);
  }
  const n = (counts.get(name) ?? 0) + 1;
  counts.set(name, n);
  return n === 1 ? `svc-${name}` : `svc-${name}-${n}`;
}

/** Whether an event that arrived from elsewhere is one of the catalog's quiet ones. */
function isQuiet(event: TapEvent, op: AddOp): boolean {
  if (event.preset === 'timer') return event.value === 'start';
  if (event.preset === 'deck') {
    const cards = Array.isArray(op.props.cards) ? op.props.cards.length : 0;
    return typeof event.value === 'number' && event.value < cards;
  }
  if (event.preset === 'checklist') {
    return event.value !== null && typeof event.value === 'object' && !Array.isArray(event.value);
  }
  return false;
}

function sameValue(a: unknown, b: string): boolean {
  if (Array.isArray(a)) return a.map(String).includes(b);
  return String(a) === b;
}

/**
 * Draws a component as answered: controls disabled, the picked ones marked, the echo below. When the keyboard
 * focus was in the component (the button just pressed, the field just sent), it moves to the echo, which
 * says what was answered: disabling the focused control would otherwise drop it to the page body.
 */
function markAnswered(el: HTMLElement, event: TapEvent, doc: Document): void {
  const focused = doc.activeElement;
  const hadFocus = focused !== null && focused !== el && el.contains(focused);
  el.dataset.answered = 'true';
  for (const control of el.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement>(
    'button, input, textarea',
  )) {
    if (control.classList.contains('svc-th')) continue;
    control.disabled = true;
    const value = control.dataset.value;
    if (value !== undefined && sameValue(event.value, value)) {
      control.classList.add('svc-picked');
      if (control instanceof HTMLInputElement && control.type === 'checkbox') control.checked = true;
    }
  }
  const rating = el.querySelector<HTMLElement>('.svc-scale-rating');
  if (rating && typeof event.value === 'number') lightStars(rating, event.value);
  // The same echo element is kept when an answer is drawn again (the tap coming back from the service), so
  // focus resting on it stays.
  let echo = el.querySelector<HTMLElement>('.svc-echo');
  if (!echo) {
    echo = h(doc, 'p', { class: 'svc-echo', role: 'status', tabindex: -1 });
    el.append(echo);
  }
  const text = formatEcho(event);
  if (echo.textContent !== `✓ ${text}`) {
    echo.replaceChildren(h(doc, 'span', { 'aria-hidden': 'true' }, '✓ '), text);
  }
  if (hadFocus) echo.focus({ preventScroll: true });
}

/**
 * Puts `next` in place of `old`. When the focus was inside `old` it lands on the control with the same id
 * in `next` (a row of a redrawn list), else on `next` itself, never on the page body.
 */
function replaceKeepingFocus(old: HTMLElement, next: HTMLElement, doc: Document): void {
  const focused = doc.activeElement as HTMLElement | null;
  const inside = focused !== null && old.contains(focused);
  const id = inside ? focused.id : '';
  old.replaceWith(next);
  if (!inside) return;
  const same = id ? [...next.querySelectorAll<HTMLElement>('[id]')].find((e) => e.id === id) : undefined;
  if (same && !(same as HTMLButtonElement).disabled) {
    same.focus({ preventScroll: true });
    return;
  }
  if (!next.hasAttribute('tabindex')) next.setAttribute('tabindex', '-1');
  next.focus({ preventScroll: true });
}

/**
 * Draws parser ops as one screen. Every catalog component is drawn; taps call `options.onTap` with the
 * catalog's event, whether it is quiet, its tap line and echo. A component whose final event fired is
 * drawn answered (quiet events and query row changes leave it live). Table, put and drop ops are not
 * drawn (the caller runs them against the person's tables), a `theme` op goes to `options.onTheme`.
 *
 * @example
 * ```ts
 * const { ops } = parse('timer 5m Stretch\nchoose@lunch "Lunch?" Soup|Salad');
 * const screen = renderScreen(ops, { screen: 's1', onTap: ({ event, line }) => send(line) });
 * document.body.append(screen.element);
 * ```
 */
export function renderScreen(ops: ScreenOps, options: ScreenViewOptions): ScreenHandle {
  if (!Array.isArray(ops))
    throw new ScreenViewError(
      'INVALID_ARGUMENT',
      'renderScreen(ops) takes the ops array that parse() returns',
    );
  if (!options || typeof options.onTap !== 'function') {
    throw new ScreenViewError(
      'INVALID_ARGUMENT',
      'renderScreen needs options.onTap, a function called for every tap',
    );
  }
  const doc = options.document ?? (globalThis as { document?: Document }).document;
  if (!doc)
    throw new ScreenViewError(
      'NO_DOCUMENT',
      'no DOM document: pass options.document when there is no global document',
    );

  const root = h(doc, 'div', { class: 'svc-screen' });
  if (options.screen) root.dataset.screen = options.screen;
  const scope = scopeOf(doc, options.screen);
  root.dataset.scope = scope;
  const components = new Map<string, { op: AddOp; el: HTMLElement; cleanups: (() => void)[] }>();
  const answered = new Map<string, TapEvent>();

  const ctx: RenderContext = {
    doc,
    options,
    now: options.now ?? (() => Date.now()),
    id: (op, part) => `${scope}-${op.id}-${part}`,
    tap(op, value, extra = {}, quiet = false) {
      const event: TapEvent = { id: op.id, preset: op.preset, value, ...extra };
      if (options.screen) event.screen = options.screen;
      const tap: ScreenTap = { event, quiet, line: formatTapLine(event), echo: formatEcho(event) };
      if (endsComponent(event, quiet)) {
        answered.set(op.id, event);
        const entry = components.get(op.id);
        if (entry) markAnswered(entry.el, event, doc);
      }
      options.onTap(tap);
    },
    onDestroy(op, fn) {
      components.get(op.id)?.cleanups.push(fn);
    },
  };

  const draw = (op: AddOp): HTMLElement => {
    const drawer = Object.hasOwn(DRAWERS, op.preset) ? DRAWERS[op.preset]! : undefined;
    const entry = components.get(op.id) ?? { op, el: root, cleanups: [] };
    for (const fn of entry.cleanups.splice(0)) fn();
    entry.op = op;
    components.set(op.id, entry);
    const el = drawer
      ? drawer(ctx, op)
      : h(
          doc,
          'section',
          { class: 'svc-c svc-unknown', 'data-id': op.id },
          h(doc, 'p', { class: 'svc-muted' }, `This app cannot draw ${op.preset} yet.`),
        );
    if (catalog[op.preset]?.staged) el.classList.add('svc-staged');
    entry.el = el;
    const done = answered.get(op.id);
    if (done) markAnswered(el, done, doc);
    return el;
  };

  const api: ScreenHandle = {
    element: root,
    patch(op: PatchOp) {
      const entry = components.get(op.id);
      if (!entry) return false;
      const spec = catalog[entry.op.preset];
      const props = { ...entry.op.props };
      for (const [key, value] of Object.entries(op.props)) {
        if (value === null) {
          if (spec && Object.hasOwn(spec.defaults, key)) props[key] = spec.defaults[key];
          else delete props[key];
        } else props[key] = value;
      }
      const old = entry.el;
      replaceKeepingFocus(old, draw({ ...entry.op, props }), doc);
      return true;
    },
    answer(event: TapEvent) {
      const entry = components.get(event.id);
      if (!entry || entry.op.preset !== event.preset) return false;
      if (!endsComponent(event, isQuiet(event, entry.op))) return true;
      answered.set(event.id, event);
      markAnswered(entry.el, event, doc);
      return true;
    },
    refresh() {
      for (const entry of components.values()) {
        if (entry.op.preset === 'query') replaceKeepingFocus(entry.el, draw(entry.op), doc);
      }
    },
    destroy() {
      for (const entry of components.values()) for (const fn of entry.cleanups.splice(0)) fn();
    },
  };
  const groups = new Map<string, HTMLElement>();
  for (const op of ops) {
    if (op.op === 'theme') options.onTheme?.(op.look);
    if (op.op === 'group') {
      const group = op as GroupOp;
      const box = h(doc, 'div', {
        class: `svc-group svc-group-${group.layout}`,
        'data-id': group.id,
        role: 'group',
        'aria-label': group.title,
      });
      if (group.title) box.append(h(doc, 'p', { class: 'svc-group-title' }, group.title));
      groups.set(group.id, box);
      root.append(box);
    }
    if (op.op === 'patch') api.patch(op);
    if (op.op !== 'add') continue;
    const el = draw(op);
    (op.group ? (groups.get(op.group) ?? root) : root).append(el);
  }

  for (const event of options.answers ?? []) api.answer(event);
  return api;
}
