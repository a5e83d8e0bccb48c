// Components answered with one tap: choose (and +multi), confirm, buttons and checkin.
import type { AddOp } from '@screen-service/screen-lines/catalog';
import { button, frame, list, num, question, type RenderContext, str } from '../context.js';
import { h, svg } from '../dom.js';

/** `choose`: one button per option; with +multi toggles and a Send button. */
export function drawChoose(ctx: RenderContext, op: AddOp): HTMLElement {
  const options = list(op.props, 'options');
  const multi = op.props.multi === true;
  const group = h(ctx.doc, 'div', {
    class: 'svc-options',
    role: 'group',
    'aria-labelledby': ctx.id(op, 'q'),
  });
  const picked = new Set<string>();
  const send = button(
    ctx,
    'Send',
    () =>
      ctx.tap(
        op,
        options.filter((o) => picked.has(o)),
      ),
    {
      class: 'svc-btn svc-primary svc-send',
      disabled: true,
    },
  );
  for (const option of options) {
    const el = button(
      ctx,
      option,
      (b) => {
        if (!multi) {
          b.classList.add('svc-picked');
          ctx.tap(op, option);
          return;
        }
        if (picked.has(option)) picked.delete(option);
        else picked.add(option);
        b.setAttribute('aria-pressed', String(picked.has(option)));
        send.disabled = picked.size === 0;
      },
      { class: 'svc-btn svc-option', 'data-value': option, 'aria-pressed': multi ? 'false' : undefined },
    );
    group.append(el);
  }
  return frame(ctx, op, question(ctx, op, str(op.props, 'question')), group, multi && send);
}

/** `confirm`: the first button answers true, the second false; the label rides along. */
export function drawConfirm(ctx: RenderContext, op: AddOp): HTMLElement {
  const [yes = 'Yes', no = 'No'] = list(op.props, 'options');
  const row = h(ctx.doc, 'div', {
    class: 'svc-options svc-row',
    role: 'group',
    'aria-labelledby': ctx.id(op, 'q'),
  });
  row.append(
    button(ctx, yes, () => ctx.tap(op, true, { label: yes }), {
      class: 'svc-btn svc-primary',
      'data-value': 'true',
    }),
    button(ctx, no, () => ctx.tap(op, false, { label: no }), {
      class: 'svc-btn',
      'data-value': 'false',
    }),
  );
  return frame(ctx, op, question(ctx, op, str(op.props, 'question')), row);
}

/** `buttons`: each button answers its label; `layout=stack` puts them under each other. */
export function drawButtons(ctx: RenderContext, op: AddOp): HTMLElement {
  const prompt = str(op.props, 'prompt');
  const stack = op.props.layout === 'stack';
  const row = h(ctx.doc, 'div', {
    class: `svc-options ${stack ? 'svc-stack' : 'svc-row'}`,
    role: 'group',
    'aria-labelledby': prompt ? ctx.id(op, 'q') : undefined,
    'aria-label': prompt ? undefined : 'Actions',
  });
  list(op.props, 'options').forEach((label, i) => {
    row.append(
      button(ctx, label, () => ctx.tap(op, label), {
        class: i === 0 ? 'svc-btn svc-primary' : 'svc-btn',
        'data-value': label,
      }),
    );
  });
  return frame(ctx, op, prompt && question(ctx, op, prompt), row);
}

/** Mouth curves of the five mood faces, from awful to great (drawn as SVG: no emoji font needed). */
const MOUTHS = [
  'M8 17q4-4 8 0',
  'M8.5 16.5q3.5-2 7 0',
  'M8.5 15.5h7',
  'M8.5 15q3.5 2 7 0',
  'M8 14.5q4 4.5 8 0',
];

function moodFace(doc: Document, level: number): SVGElement {
  return svg(
    doc,
    'svg',
    { viewBox: '0 0 24 24', class: 'svc-face', 'aria-hidden': 'true' },
    svg(doc, 'circle', { cx: 12, cy: 12, r: 10 }),
    svg(doc, 'circle', { cx: 9, cy: 10, r: 1.2, class: 'svc-eye' }),
    svg(doc, 'circle', { cx: 15, cy: 10, r: 1.2, class: 'svc-eye' }),
    svg(doc, 'path', { d: MOUTHS[level] }),
  );
}
const MOOD_WORDS = ['awful', 'low', 'okay', 'good', 'great'];

/**
 * Fills the stars of a rating up to `value` (★) and leaves the rest outlined (☆): the picked rating shows by
 * shape, not only by colour.
 */
export function lightStars(row: HTMLElement, value: number): void {
  for (const star of row.querySelectorAll<HTMLElement>('button')) {
    const lit = Number(star.dataset.value) <= value;
    star.classList.toggle('svc-lit', lit);
    star.textContent = lit ? '★' : '☆';
  }
}

/** `checkin`: scale (numbers), mood (five faces) or rating (stars); the value is the number picked. */
export function drawCheckin(ctx: RenderContext, op: AddOp): HTMLElement {
  const kind = str(op.props, 'kind') || 'scale';
  const lo = num(op.props, 'min') ?? 1;
  const hi = num(op.props, 'max') ?? (kind === 'scale' ? 10 : 5);
  const row = h(ctx.doc, 'div', {
    class: `svc-options svc-scale svc-scale-${kind}`,
    role: 'group',
    'aria-labelledby': ctx.id(op, 'q'),
  });
  for (let v = lo; v <= hi; v++) {
    const level = Math.round(((v - lo) / Math.max(1, hi - lo)) * 4);
    const label =
      kind === 'mood'
        ? `${v}: ${MOOD_WORDS[level]}`
        : kind === 'rating'
          ? `${v} ${v === 1 ? 'star' : 'stars'}`
          : `${v} of ${hi}`;
    const text = kind === 'mood' ? '' : kind === 'rating' ? '☆' : String(v);
    const el = button(
      ctx,
      text,
      (b) => {
        if (kind === 'rating') lightStars(row, v);
        b.classList.add('svc-picked');
        ctx.tap(op, v, { kind });
      },
      { class: 'svc-btn svc-step', 'data-value': String(v), 'aria-label': label, title: label },
    );
    if (kind === 'mood') el.append(moodFace(ctx.doc, level));
    row.append(el);
  }
  return frame(ctx, op, question(ctx, op, str(op.props, 'question')), row);
}
