// Charts as inline SVG (offline, no library): line, bar, area, scatter, pie and donut, coloured by palette.
import { h, svg } from './dom.js';

/** What a chart draws: one label per point and one or more series of numbers. */
export interface ChartSpec {
  type: 'line' | 'bar' | 'area' | 'scatter' | 'pie' | 'donut';
  labels: string[];
  series: { name: string; values: (number | null)[] }[];
  unit?: string;
  min?: number;
  max?: number;
  stack?: boolean;
  title?: string;
}

const W = 320;
const H = 180;
const PAD = { left: 40, right: 10, top: 12, bottom: 26 };
/** Room above the plot for the y axis's unit, when there is one. */
const UNIT_ROOM = 14;
const colour = (i: number) => `var(--svc-chart-${(i % 6) + 1})`;
/** About how wide one character of a 12 px axis label is, and the gap kept between two labels (CSS px). */
const CHAR_PX = 7.2;
const GAP_PX = 10;
/** At most this many x labels, however wide the chart. */
const MOST_LABELS = 6;

/**
 * Which x labels a chart shows when its plot is `plotPx` CSS pixels wide and labels are 12 px: every
 * `every`-th one, the smallest step at which no two shown labels touch (at most six labels), and the last
 * label too when it does not touch the one before it. `bars` centres labels in their bands; a line's first
 * and last labels hug the plot's edges.
 *
 * @example
 * ```ts
 * shownLabels(['Mon', 'Tue', 'Wed'], 270, true); // [true, true, true]
 * ```
 */
export function shownLabels(labels: readonly string[], plotPx: number, bars = false): boolean[] {
  const n = labels.length;
  const widths = labels.map((l) => shortLabel(l).length * CHAR_PX);
  const centred = bars || n === 1;
  const extent = (i: number): [number, number] => {
    const x = centred ? ((i + 0.5) * plotPx) / n : (i * plotPx) / (n - 1);
    const w = widths[i]!;
    if (!centred && i === 0) return [x, x + w];
    if (!centred && i === n - 1) return [x - w, x];
    return [x - w / 2, x + w / 2];
  };
  const apart = (a: number, b: number) => extent(b)[0] - extent(a)[1] >= GAP_PX;
  let every = Math.max(1, Math.ceil(n / MOST_LABELS));
  const fits = (step: number) => {
    for (let i = step; i < n; i += step) if (!apart(i - step, i)) return false;
    return true;
  };
  while (every < n && !fits(every)) every++;
  const shown = labels.map((_, i) => i % every === 0);
  const before = n - 1 - ((n - 1) % every);
  if (n > 1 && !shown[n - 1] && apart(before, n - 1)) shown[n - 1] = true;
  return shown;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An x label as short as it reads well: ISO days become `Nov 18`, long words are cut. */
export function shortLabel(label: string): string {
  const day = /^\d{4}-(\d{2})-(\d{2})(?:T(\d{2}:\d{2}))?$/.exec(label);
  if (day) return day[3] ?? `${MONTHS[Number(day[1]) - 1] ?? day[1]} ${Number(day[2])}`;
  return label.length > 10 ? `${label.slice(0, 9)}…` : label;
}

/** Rounds a number for an axis label: integers plain, others to 2 significant decimals. */
export function formatTick(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return String(Number.parseFloat(value.toFixed(Math.abs(value) >= 10 ? 1 : 2)));
}

/** A "nice" step (1, 2, 2.5 or 5 times a power of ten) splitting `span` into about `count` parts. */
export function niceStep(span: number, count = 4): number {
  if (!(span > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10;
  return step * power;
}

/** The y range and ticks: given bounds win; otherwise nice bounds around the data (bars and areas from 0). */
export function axisOf(spec: ChartSpec, values: number[]): { lo: number; hi: number; ticks: number[] } {
  const fromZero = spec.type === 'bar' || spec.type === 'area';
  let lo = values.length ? Math.min(...values) : 0;
  let hi = values.length ? Math.max(...values) : 1;
  if (fromZero) lo = Math.min(0, lo);
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const step = niceStep(hi - lo);
  lo = spec.min ?? Math.floor(lo / step) * step;
  hi = spec.max ?? Math.ceil(hi / step) * step;
  if (hi <= lo) hi = lo + step;
  const ticks: number[] = [];
  const tickStep = niceStep(hi - lo);
  for (let t = Math.ceil(lo / tickStep) * tickStep; t <= hi + tickStep * 1e-9; t += tickStep) {
    ticks.push(Number(t.toPrecision(12)));
  }
  return { lo, hi, ticks };
}

function stacked(spec: ChartSpec): number[][] {
  const rows = spec.series.map((s) => s.values.map((v) => v ?? 0));
  if (!spec.stack) return rows;
  return rows.map((row, si) =>
    row.map((_, i) => rows.slice(0, si + 1).reduce((sum, r) => sum + (r[i] ?? 0), 0)),
  );
}

function describe(spec: ChartSpec): string {
  const unit = spec.unit ? ` ${spec.unit}` : '';
  const parts = spec.series.map((s) => {
    const points = spec.labels.map((label, i) => `${label} ${s.values[i] ?? 'none'}${unit}`).join(', ');
    return spec.series.length > 1 ? `${s.name}: ${points}` : points;
  });
  return `${spec.title ? `${spec.title}. ` : ''}${spec.type} chart: ${parts.join('; ')}`;
}

function cartesian(doc: Document, spec: ChartSpec, root: SVGElement): void {
  const tops = stacked(spec);
  const all = tops.flat().concat(spec.series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const { lo, hi, ticks } = axisOf(spec, all);
  // The unit names the y axis: it sits at the axis's top, above its highest tick (issue 38: it used to
  // sit under the x axis, where it read as the labels' unit).
  const top = PAD.top + (spec.unit ? UNIT_ROOM : 0);
  if (spec.unit) {
    root.append(
      svg(
        doc,
        'text',
        { x: PAD.left - 6, y: 12, 'text-anchor': 'end', class: 'svc-chart-tick svc-chart-unit' },
        spec.unit,
      ),
    );
  }
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - top - PAD.bottom;
  const n = Math.max(1, spec.labels.length);
  const y = (v: number) => top + plotH - ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * plotH;
  const band = plotW / n;
  const x = (i: number) =>
    spec.type === 'bar' || n === 1 ? PAD.left + band * (i + 0.5) : PAD.left + (plotW * i) / (n - 1);
  for (const t of ticks) {
    root.append(
      svg(doc, 'line', { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t), class: 'svc-chart-grid' }),
      svg(
        doc,
        'text',
        { x: PAD.left - 6, y: y(t) + 4, 'text-anchor': 'end', class: 'svc-chart-tick' },
        formatTick(t),
      ),
    );
  }
  // Every x label is drawn; fitLabels shows the ones that fit the chart's width (until it is measured, as
  // many as fit at the viewBox's own size).
  const shown = shownLabels(spec.labels, plotW, spec.type === 'bar');
  spec.labels.forEach((label, i) => {
    const last = i === n - 1;
    // The first and last labels of a line hug the plot's edges so they are not cut off.
    const anchor = spec.type === 'bar' || n === 1 ? 'middle' : i === 0 ? 'start' : last ? 'end' : 'middle';
    root.append(
      svg(
        doc,
        'text',
        {
          x: x(i),
          y: H - 8,
          'text-anchor': anchor,
          class: 'svc-chart-tick svc-chart-x',
          display: shown[i] ? undefined : 'none',
        },
        shortLabel(label),
      ),
    );
  });
  const count = spec.series.length;
  spec.series.forEach((series, si) => {
    const style = `fill: ${colour(si)}; stroke: ${colour(si)}`;
    const points = series.values
      .map((v, i) => (v === null ? null : { i, x: x(i), y: y(tops[si]![i]!) }))
      .filter((p): p is { i: number; x: number; y: number } => p !== null);
    if (spec.type === 'bar') {
      const width = spec.stack ? band * 0.6 : (band * 0.7) / count;
      for (const p of points) {
        const base = spec.stack && si > 0 ? y(tops[si - 1]![p.i]!) : y(Math.max(lo, 0));
        const left = spec.stack ? p.x - width / 2 : p.x - (band * 0.7) / 2 + width * si;
        root.append(
          svg(doc, 'rect', {
            x: left.toFixed(1),
            y: Math.min(p.y, base).toFixed(1),
            width: Math.max(1, width - 1).toFixed(1),
            height: Math.max(1, Math.abs(base - p.y)).toFixed(1),
            rx: 2,
            style,
            class: 'svc-chart-bar',
          }),
        );
      }
      return;
    }
    const path = points.map((p, k) => `${k ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    if (spec.type === 'area' && points.length > 0) {
      const under =
        spec.stack && si > 0
          ? [...points]
              .reverse()
              .map((p) => `L${p.x.toFixed(1)},${y(tops[si - 1]![p.i]!).toFixed(1)}`)
              .join(' ')
          : `L${points.at(-1)!.x.toFixed(1)},${y(Math.max(lo, 0)).toFixed(1)} L${points[0]!.x.toFixed(1)},${y(Math.max(lo, 0)).toFixed(1)}`;
      root.append(
        svg(doc, 'path', { d: `${path} ${under} Z`, style: `fill: ${colour(si)}`, class: 'svc-chart-area' }),
      );
    }
    if (spec.type !== 'scatter' && points.length > 1) {
      root.append(svg(doc, 'path', { d: path, style: `stroke: ${colour(si)}`, class: 'svc-chart-line' }));
    }
    for (const p of points) {
      root.append(
        svg(doc, 'circle', {
          cx: p.x.toFixed(1),
          cy: p.y.toFixed(1),
          r: spec.type === 'scatter' ? 4 : 3,
          style,
          class: 'svc-chart-dot',
        }),
      );
    }
  });
}

function arc(cx: number, cy: number, r: number, from: number, to: number): [string, string] {
  const at = (a: number) => `${(cx + r * Math.sin(a)).toFixed(2)},${(cy - r * Math.cos(a)).toFixed(2)}`;
  return [at(from), at(to)];
}

function round(doc: Document, spec: ChartSpec, root: SVGElement): void {
  const values = (spec.series[0]?.values ?? []).map((v) => Math.max(0, v ?? 0));
  const total = values.reduce((a, b) => a + b, 0);
  const cx = W / 2;
  const cy = H / 2;
  const r = H / 2 - 8;
  const inner = spec.type === 'donut' ? r * 0.58 : 0;
  if (total <= 0) {
    root.append(svg(doc, 'circle', { cx, cy, r, class: 'svc-chart-empty' }));
    return;
  }
  let angle = 0;
  values.forEach((v, i) => {
    if (v <= 0) return;
    const sweep = (v / total) * Math.PI * 2;
    const style = `fill: ${colour(i)}`;
    if (sweep >= Math.PI * 2 - 1e-9) {
      root.append(svg(doc, 'circle', { cx, cy, r, style, class: 'svc-chart-slice' }));
    } else {
      const large = sweep > Math.PI ? 1 : 0;
      const [a, b] = arc(cx, cy, r, angle, angle + sweep);
      const d = inner
        ? (() => {
            const [c, e] = arc(cx, cy, inner, angle + sweep, angle);
            return `M${a} A${r},${r} 0 ${large} 1 ${b} L${c} A${inner},${inner} 0 ${large} 0 ${e} Z`;
          })()
        : `M${cx},${cy} L${a} A${r},${r} 0 ${large} 1 ${b} Z`;
      root.append(svg(doc, 'path', { d, style, class: 'svc-chart-slice' }));
    }
    angle += sweep;
  });
  if (inner) root.append(svg(doc, 'circle', { cx, cy, r: inner, class: 'svc-chart-hole' }));
}

/**
 * Keeps axis labels 12 CSS px tall however wide the chart is drawn (the SVG scales with its box, its text
 * with it): sets `--svc-chart-unit` (viewBox units per pixel, which the stylesheet multiplies the label size
 * by) and shows the x labels that fit. Runs whenever the chart's width changes, where ResizeObserver exists.
 */
function fitLabels(root: SVGElement, labels: readonly string[], bars: boolean): void {
  if (typeof ResizeObserver !== 'function') return;
  const fit = (width: number) => {
    if (!(width > 0)) return;
    (root as SVGElement & ElementCSSInlineStyle).style.setProperty('--svc-chart-unit', String(W / width));
    const shown = shownLabels(labels, ((W - PAD.left - PAD.right) * width) / W, bars);
    root.querySelectorAll('.svc-chart-x').forEach((text, i) => {
      if (shown[i]) text.removeAttribute('display');
      else text.setAttribute('display', 'none');
    });
  };
  new ResizeObserver((entries) => {
    for (const entry of entries) fit(entry.contentRect.width);
  }).observe(root);
}

/**
 * Draws a chart as a `<figure>` holding an inline SVG (role `img`, labelled with every value) and a legend
 * when there are several series or slices. Colours come from the palette's `--svc-chart-N` variables. Axis
 * labels stay 12 px at any width (fewer x labels when narrow).
 *
 * @example
 * ```ts
 * drawChart(document, { type: 'bar', labels: ['Mon', 'Tue'], series: [{ name: 'Km', values: [3, 5] }] });
 * ```
 */
export function drawChart(doc: Document, spec: ChartSpec): HTMLElement {
  const root = svg(doc, 'svg', {
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-label': describe(spec),
    class: `svc-chart-svg svc-chart-${spec.type}`,
    preserveAspectRatio: 'xMidYMid meet',
  });
  if (spec.type === 'pie' || spec.type === 'donut') round(doc, spec, root);
  else {
    cartesian(doc, spec, root);
    fitLabels(root, spec.labels, spec.type === 'bar');
  }
  const figure = h(doc, 'figure', { class: 'svc-chart-box' });
  if (spec.title) figure.append(h(doc, 'figcaption', { class: 'svc-title' }, spec.title));
  figure.append(root);
  const round2 = spec.type === 'pie' || spec.type === 'donut';
  const keys = round2
    ? spec.labels.map(
        (label, i) =>
          `${label} ${formatTick(spec.series[0]?.values[i] ?? 0)}${spec.unit ? ` ${spec.unit}` : ''}`,
      )
    : spec.series.length > 1
      ? spec.series.map((s) => s.name)
      : [];
  if (keys.length > 0) {
    const legend = h(doc, 'ul', { class: 'svc-chart-legend', 'aria-hidden': 'true' });
    keys.forEach((key, i) => {
      legend.append(
        h(doc, 'li', {}, h(doc, 'span', { class: 'svc-swatch', style: `background: ${colour(i)}` }), key),
      );
    });
    figure.append(legend);
  }
  return figure;
}

/**
 * A small trend line for a stat (no axes), or nothing when there are fewer than two points.
 *
 * @example
 * ```ts
 * drawSpark(document, [72.9, 72.5, 72.1]);
 * ```
 */
export function drawSpark(doc: Document, values: number[]): SVGElement | null {
  if (values.length < 2) return null;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const d = values
    .map(
      (v, i) =>
        `${i ? 'L' : 'M'}${((i / (values.length - 1)) * 96 + 2).toFixed(1)},${(22 - ((v - lo) / span) * 20).toFixed(1)}`,
    )
    .join(' ');
  return svg(
    doc,
    'svg',
    { viewBox: '0 0 100 24', class: 'svc-spark', 'aria-hidden': 'true' },
    svg(doc, 'path', { d, style: 'stroke: var(--svc-chart-1)' }),
  );
}
