// Components that show rather than ask: text, image, gallery, link, divider, stat, progress, math and chart.
import type { AddOp } from '@screen-service/screen-lines/catalog';
import { drawChart, drawSpark } from '../chart-svg.js';
import { frame, list, num, type RenderContext, str } from '../context.js';
import { h } from '../dom.js';
import { renderMarkdown } from '../markdown.js';
import { texToMathml } from '../tex.js';

/** `text`: a line of markdown. */
export function drawText(ctx: RenderContext, op: AddOp): HTMLElement {
  return frame(ctx, op, renderMarkdown(ctx.doc, str(op.props, 'text')));
}

/** `image`: a URL, or a prompt turned into a URL by the page's image-generation CDN (else a placeholder). */
export function drawImage(ctx: RenderContext, op: AddOp): HTMLElement {
  const caption = str(op.props, 'caption');
  const prompt = str(op.props, 'prompt');
  const src = str(op.props, 'url') || (prompt ? ctx.options.imageFromPrompt?.(prompt) : undefined);
  const figure = h(ctx.doc, 'figure', { class: 'svc-figure' });
  figure.append(
    src
      ? h(ctx.doc, 'img', { src, alt: caption || prompt || 'Image', loading: 'lazy', decoding: 'async' })
      : h(
          ctx.doc,
          'div',
          {
            class: 'svc-placeholder',
            role: 'img',
            'aria-label': `Image not drawn here: ${prompt || caption}`,
          },
          // No image-generation CDN configured: say so, and keep the prompt so the person knows what was meant.
          h(ctx.doc, 'span', { class: 'svc-placeholder-note' }, 'Image not drawn here'),
          h(ctx.doc, 'span', {}, prompt),
        ),
  );
  if (caption) figure.append(h(ctx.doc, 'figcaption', {}, caption));
  return frame(ctx, op, figure);
}

/** `gallery`: images as a scrolling row, a feed, a 3D row or a grid. */
export function drawGallery(ctx: RenderContext, op: AddOp): HTMLElement {
  const images = list(op.props, 'images');
  const view = str(op.props, 'view') || 'row';
  const ul = h(ctx.doc, 'ul', {
    class: `svc-gallery svc-gallery-${view}`,
    'aria-label': `${images.length} images`,
  });
  images.forEach((src, i) => {
    ul.append(
      h(
        ctx.doc,
        'li',
        {},
        h(ctx.doc, 'img', { src, alt: `Image ${i + 1} of ${images.length}`, loading: 'lazy' }),
      ),
    );
  });
  return frame(ctx, op, ul);
}

/** `link`: opens in a new tab; the label defaults to the host name. */
export function drawLink(ctx: RenderContext, op: AddOp): HTMLElement {
  const url = str(op.props, 'url');
  let label = str(op.props, 'label');
  if (!label) {
    try {
      label = new URL(url).hostname;
    } catch {
      label = url;
    }
  }
  return frame(
    ctx,
    op,
    h(
      ctx.doc,
      'a',
      { href: url, target: '_blank', rel: 'noopener noreferrer', class: 'svc-link' },
      label,
      h(ctx.doc, 'span', { 'aria-hidden': 'true' }, ' ↗'),
    ),
  );
}

/** `divider`: a thin rule. */
export function drawDivider(ctx: RenderContext, op: AddOp): HTMLElement {
  return frame(ctx, op, h(ctx.doc, 'hr'));
}

/** The numbers of a stat, shared by `stat` and `query ... as stat`. */
export interface StatParts {
  value: string;
  label: string;
  unit?: string;
  change?: number | null;
  good?: 'up' | 'down';
  spark?: number[];
}

/**
 * Draws a big number with its label, change and spark line. A change that moves the good way is green and
 * says `better`, the other way red and `worse` (in words too, so colour is never the only cue).
 */
export function statBlock(doc: Document, parts: StatParts): HTMLElement {
  const box = h(doc, 'div', { class: 'svc-stat-box' });
  box.append(
    h(doc, 'p', { class: 'svc-stat-label' }, parts.label),
    h(
      doc,
      'p',
      { class: 'svc-stat-value' },
      parts.value,
      parts.unit ? h(doc, 'span', { class: 'svc-unit' }, ` ${parts.unit}`) : null,
    ),
  );
  if (typeof parts.change === 'number') {
    const c = parts.change;
    const mood = c === 0 || !parts.good ? '' : c > 0 === (parts.good === 'up') ? 'svc-good' : 'svc-bad';
    const arrow = c > 0 ? '▲' : c < 0 ? '▼' : '→';
    const text = `${c > 0 ? '+' : ''}${Number.parseFloat(c.toFixed(2))}${parts.unit ? ` ${parts.unit}` : ''}`;
    box.append(
      h(
        doc,
        'p',
        { class: `svc-stat-change ${mood}` },
        h(doc, 'span', { 'aria-hidden': 'true' }, `${arrow} `),
        text,
        mood && h(doc, 'span', { class: 'svc-verdict' }, mood === 'svc-good' ? ' better' : ' worse'),
      ),
    );
  }
  const spark = parts.spark ? drawSpark(doc, parts.spark) : null;
  if (spark) box.append(spark);
  return box;
}

/** `stat`: one big number. */
export function drawStat(ctx: RenderContext, op: AddOp): HTMLElement {
  const value = op.props.value;
  const change = num(op.props, 'change');
  const good = op.props.good === 'up' || op.props.good === 'down' ? op.props.good : undefined;
  const unit = str(op.props, 'unit');
  return frame(
    ctx,
    op,
    statBlock(ctx.doc, {
      value: String(value ?? ''),
      label: str(op.props, 'label'),
      ...(unit ? { unit } : {}),
      ...(change === undefined ? {} : { change }),
      ...(good ? { good } : {}),
    }),
  );
}

/** `progress`: a labelled bar (`3 / 10` or `40%`). */
export function drawProgress(ctx: RenderContext, op: AddOp): HTMLElement {
  const value = num(op.props, 'value') ?? 0;
  const max = num(op.props, 'max') ?? 100;
  const label = str(op.props, 'label');
  const share = Math.max(0, Math.min(1, value / max));
  const text = max === 100 ? `${Number.parseFloat(value.toFixed(1))}%` : `${value} / ${max}`;
  const bar = h(
    ctx.doc,
    'div',
    {
      class: 'svc-bar',
      role: 'progressbar',
      'aria-valuemin': 0,
      'aria-valuemax': max,
      'aria-valuenow': value,
      'aria-valuetext': text,
      'aria-label': label || 'Progress',
    },
    h(ctx.doc, 'div', { class: 'svc-bar-fill', style: `width: ${(share * 100).toFixed(1)}%` }),
  );
  return frame(
    ctx,
    op,
    h(
      ctx.doc,
      'div',
      { class: 'svc-progress-head' },
      h(ctx.doc, 'span', {}, label),
      h(ctx.doc, 'span', { class: 'svc-muted' }, text),
    ),
    bar,
  );
}

/** `math`: TeX drawn as MathML with system serif fonts. */
export function drawMath(ctx: RenderContext, op: AddOp): HTMLElement {
  return frame(ctx, op, texToMathml(ctx.doc, str(op.props, 'tex')));
}

/** `chart`: inline data as an SVG chart. */
export function drawInlineChart(ctx: RenderContext, op: AddOp): HTMLElement {
  const data = Array.isArray(op.props.data) ? (op.props.data as { label: string; value: number }[]) : [];
  const unit = str(op.props, 'unit');
  const title = str(op.props, 'title');
  const min = num(op.props, 'min');
  const max = num(op.props, 'max');
  const type = (str(op.props, 'type') || 'line') as 'line';
  return frame(
    ctx,
    op,
    drawChart(ctx.doc, {
      type,
      labels: data.map((d) => d.label),
      series: [{ name: title || 'Value', values: data.map((d) => d.value) }],
      stack: op.props.stack === true,
      ...(unit ? { unit } : {}),
      ...(title ? { title } : {}),
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
    }),
  );
}
