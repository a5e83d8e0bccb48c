// Staged components: timer and deck start folded as a pill so a question on the same screen stays visible.
import type { AddOp } from '@screen-service/screen-lines/catalog';
import { button, frame, list, num, type RenderContext, str } from '../context.js';
import { h, svg } from '../dom.js';

/** `mm:ss` or `h:mm:ss`. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** Pill icons as SVG paths (24x24, stroked): no emoji font is needed. */
const ICONS = {
  timer: 'M12 8v5l3 2M9 2h6M12 5a8 8 0 1 0 0 16a8 8 0 0 0 0-16z',
  deck: 'M7 4h10a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zM9 2h8a2 2 0 0 1 2 2',
};

function pill(
  ctx: RenderContext,
  op: AddOp,
  icon: keyof typeof ICONS,
  text: string,
  onOpen: () => void,
): HTMLButtonElement {
  const mark = svg(
    ctx.doc,
    'svg',
    { viewBox: '0 0 24 24', class: 'svc-pill-icon', 'aria-hidden': 'true' },
    svg(ctx.doc, 'path', { d: ICONS[icon] }),
  );
  const el = h(
    ctx.doc,
    'button',
    { type: 'button', class: 'svc-pill', 'aria-expanded': 'false' },
    mark,
    text,
  );
  el.addEventListener('click', () => {
    el.setAttribute('aria-expanded', 'true');
    onOpen();
  });
  el.dataset.id = op.id;
  return el;
}

/**
 * Seconds left at which a running timer speaks, longest first: each hour, then 30, 15, 10, 5 and 2
 * minutes, 1 minute, 30 and 10 seconds; only those shorter than the timer.
 */
export function timerMarks(total: number): number[] {
  const marks = [10, 30, 60, 120, 300, 600, 900, 1800];
  for (let hour = 3600; hour < total; hour += 3600) marks.push(hour);
  return marks.filter((m) => m < total).sort((a, b) => b - a);
}

/** A duration as it is said: `1 hour 30 minutes`, `2 minutes`, `10 seconds`. */
export function spokenDuration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [
    s >= 3600 ? unit(Math.floor(s / 3600), 'hour') : '',
    s % 3600 >= 60 ? unit(Math.floor((s % 3600) / 60), 'minute') : '',
    s % 60 > 0 || s === 0 ? unit(s % 60, 'second') : '',
  ];
  return parts.filter(Boolean).join(' ');
}

/**
 * `timer`: the pill (or Start when open) starts it (quiet), the countdown runs, reaching zero sends `done`.
 * The clock is a `role=timer` whose name counts down (`Stretch, running: 4:59 left`); a polite live line
 * speaks when it starts and at {@link timerMarks}, never every second. Opening the pill moves the focus to
 * the clock, since the pill it was on disappears.
 */
export function drawTimer(ctx: RenderContext, op: AddOp): HTMLElement {
  const seconds = num(op.props, 'seconds') ?? 60;
  const label = str(op.props, 'label');
  const name = label || 'Timer';
  const clock = h(
    ctx.doc,
    'p',
    { class: 'svc-clock', role: 'timer', tabindex: -1, 'aria-label': `${name}: ${formatClock(seconds)}` },
    formatClock(seconds),
  );
  const status = h(ctx.doc, 'p', { class: 'svc-muted' }, label);
  const speak = h(ctx.doc, 'p', { class: 'svc-sr', 'aria-live': 'polite', 'aria-atomic': 'true' });
  let handle: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    if (handle !== undefined) clearInterval(handle);
    handle = undefined;
  };
  ctx.onDestroy(op, stop);
  const start = () => {
    if (handle !== undefined || el.dataset.state === 'done') return;
    el.dataset.state = 'running';
    const hadFocus = startButton === ctx.doc.activeElement;
    startButton.hidden = true;
    if (hadFocus) clock.focus({ preventScroll: true });
    const began = ctx.now();
    const marks = timerMarks(seconds);
    speak.textContent = `${name} started: ${spokenDuration(seconds)}.`;
    clock.setAttribute('aria-label', `${name}, running: ${formatClock(seconds)} left`);
    ctx.tap(op, 'start', { seconds }, true);
    handle = setInterval(() => {
      const left = seconds - (ctx.now() - began) / 1000;
      const shown = formatClock(left);
      if (clock.textContent !== shown) {
        clock.textContent = shown;
        clock.setAttribute('aria-label', `${name}, running: ${shown} left`);
      }
      let crossed: number | undefined;
      while (marks.length > 0 && left <= marks[0]!) crossed = marks.shift();
      if (crossed !== undefined && left > 0) speak.textContent = `${name}: ${spokenDuration(crossed)} left.`;
      if (left <= 0) {
        stop();
        el.dataset.state = 'done';
        status.textContent = `${label ? `${label}: ` : ''}time is up`;
        clock.setAttribute('aria-label', `${name}: time is up`);
        // The answer's echo (role=status) says it is done; the live line stays quiet to not say it twice.
        speak.textContent = '';
        ctx.tap(op, 'done', { seconds });
      }
    }, 250);
  };
  const startButton = button(ctx, 'Start', start, { class: 'svc-btn svc-primary' });
  const card = h(ctx.doc, 'div', { class: 'svc-staged-body' }, clock, status, speak, startButton);
  const el = frame(ctx, op);
  const open = ctx.options.staged === 'open';
  card.hidden = !open;
  el.dataset.state = open ? 'open' : 'pill';
  const folded = pill(ctx, op, 'timer', `${name} · ${formatClock(seconds)}`, () => {
    const hadFocus = folded === ctx.doc.activeElement;
    folded.hidden = true;
    card.hidden = false;
    start();
    if (hadFocus || ctx.doc.activeElement === ctx.doc.body) clock.focus({ preventScroll: true });
  });
  folded.hidden = open;
  el.append(folded, card);
  return el;
}

/** `deck`: cards one at a time; turning is quiet, finishing sends how many cards were seen. */
export function drawDeck(ctx: RenderContext, op: AddOp): HTMLElement {
  const cards = list(op.props, 'cards');
  let at = 0;
  const face = h(ctx.doc, 'p', { class: 'svc-card-face', 'aria-live': 'polite' });
  const count = h(ctx.doc, 'p', { class: 'svc-muted svc-card-count' });
  const back = button(ctx, 'Back', () => show(at - 1), { class: 'svc-btn' });
  const next = button(
    ctx,
    'Next',
    () => {
      if (at < cards.length - 1) {
        show(at + 1);
        ctx.tap(op, at, {}, true);
      } else {
        ctx.tap(op, cards.length);
      }
    },
    { class: 'svc-btn svc-primary' },
  );
  const show = (i: number) => {
    at = Math.max(0, Math.min(cards.length - 1, i));
    face.textContent = cards[at] ?? '';
    count.textContent = `${at + 1} of ${cards.length}`;
    back.disabled = at === 0;
    next.textContent = at === cards.length - 1 ? 'Done' : 'Next';
  };
  show(0);
  const card = h(
    ctx.doc,
    'div',
    { class: 'svc-staged-body' },
    count,
    face,
    h(ctx.doc, 'div', { class: 'svc-options svc-row' }, back, next),
  );
  const open = ctx.options.staged === 'open';
  card.hidden = !open;
  const el = frame(ctx, op);
  el.dataset.state = open ? 'open' : 'pill';
  const folded = pill(
    ctx,
    op,
    'deck',
    `${cards.length} ${cards.length === 1 ? 'card' : 'cards'}${cards[0] ? ` · ${cards[0].slice(0, 24)}` : ''}`,
    () => {
      folded.hidden = true;
      card.hidden = false;
      el.dataset.state = 'open';
      next.focus();
    },
  );
  folded.hidden = open;
  el.append(folded, card);
  return el;
}
