// `query`: draws the tables engine's view data (table, list, chart, stat, send) live from the person's tables.
import type { AddOp, QueryProps } from '@screen-service/screen-lines/catalog';
import type { ChartView, ListView, QueryView, SendView, TableView } from '@screen-service/tables-engine';
import { formatCell } from '@screen-service/tables-engine';
import { drawChart } from '../chart-svg.js';
import { button, frame, type RenderContext } from '../context.js';
import { h } from '../dom.js';
import { statBlock } from './display.js';

/** Rows one send hands over (doc3 limit). */
const SEND_ROWS = 200;

type Cell = string | number | boolean | null;

function compareCells(a: Cell, b: Cell): number {
  if (a === null || a === '') return b === null || b === '' ? 0 : 1;
  if (b === null || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

function tableView(ctx: RenderContext, view: TableView): HTMLElement {
  const doc = ctx.doc;
  const table = h(doc, 'table', { class: 'svc-table' });
  if (view.title) table.append(h(doc, 'caption', {}, view.title));
  const body = h(doc, 'tbody');
  let sort: { index: number; desc: boolean } | undefined;
  const fill = () => {
    const order = view.rows.map((_, i) => i);
    if (sort) {
      const { index, desc } = sort;
      order.sort((a, b) => {
        const c = compareCells(view.rows[a]![index]!, view.rows[b]![index]!);
        return desc ? -c : c;
      });
    }
    if (order.length === 0) {
      body.replaceChildren(
        h(
          doc,
          'tr',
          {},
          h(doc, 'td', { colspan: Math.max(1, view.cols.length), class: 'svc-muted' }, 'No rows yet.'),
        ),
      );
      return;
    }
    body.replaceChildren(
      ...order.map((r) =>
        h(
          doc,
          'tr',
          {},
          ...view.rows[r]!.map((cell, i) =>
            h(
              doc,
              'td',
              { class: view.cols[i]?.type === 'number' ? 'svc-num' : undefined },
              formatCell(cell, view.cols[i]!),
            ),
          ),
        ),
      ),
    );
  };
  const heads = view.cols.map((col, index) => {
    const th = h(doc, 'th', { scope: 'col', 'aria-sort': 'none' });
    th.append(
      button(
        ctx,
        col.name,
        () => {
          sort = { index, desc: sort?.index === index ? !sort.desc : false };
          for (const other of heads) other.setAttribute('aria-sort', 'none');
          th.setAttribute('aria-sort', sort.desc ? 'descending' : 'ascending');
          fill();
        },
        { class: 'svc-th' },
      ),
    );
    if (col.unit) th.append(h(doc, 'span', { class: 'svc-unit-head' }, col.unit));
    return th;
  });
  table.append(h(doc, 'thead', {}, h(doc, 'tr', {}, ...heads)), body);
  fill();
  // A group, not a region: a region is a landmark, and two screens may show the same table under one name.
  // Focusable, so a keyboard can scroll a wide table sideways.
  return h(
    doc,
    'div',
    { class: 'svc-table-wrap', tabindex: 0, role: 'group', 'aria-label': view.title ?? 'Table' },
    table,
  );
}

function listView(ctx: RenderContext, op: AddOp, props: QueryProps, view: ListView): HTMLElement {
  const doc = ctx.doc;
  const ul = h(doc, 'ul', { class: `svc-list${view.check ? ' svc-checklist' : ''}` });
  view.items.forEach((item, i) => {
    if (!view.check || item.key === undefined) {
      ul.append(h(doc, 'li', {}, item.text));
      return;
    }
    const id = ctx.id(op, `r${i}`);
    const input = h(doc, 'input', {
      type: 'checkbox',
      id,
      checked: item.checked === true,
      'data-key': item.key,
    });
    const key = item.key;
    const col = view.check;
    input.addEventListener('change', () => {
      ctx.tap(op, key, { op: 'row', table: props.table, key, values: { [col]: input.checked } });
    });
    ul.append(h(doc, 'li', {}, h(doc, 'label', { for: id }, input, h(doc, 'span', {}, item.text))));
  });
  if (view.items.length === 0) ul.append(h(doc, 'li', { class: 'svc-muted' }, 'Nothing here yet.'));
  return h(doc, 'div', {}, view.title && h(doc, 'p', { class: 'svc-q' }, view.title), ul);
}

function chartView(ctx: RenderContext, view: ChartView): HTMLElement {
  const x = view.cols.findIndex((c) => c.name === view.x);
  const labels = view.rows.map((r) =>
    x < 0 ? '' : formatCell(r[x] ?? null, { ...view.cols[x]!, unit: undefined }),
  );
  const series = view.y.map((name) => {
    const i = view.cols.findIndex((c) => c.name === name);
    return { name, values: view.rows.map((r) => (typeof r[i] === 'number' ? (r[i] as number) : null)) };
  });
  return drawChart(ctx.doc, {
    type: view.type,
    labels,
    series,
    stack: view.stack,
    ...(view.unit ? { unit: view.unit } : {}),
    ...(view.title ? { title: view.title } : {}),
    ...(view.min === undefined ? {} : { min: view.min }),
    ...(view.max === undefined ? {} : { max: view.max }),
  });
}

function sendView(ctx: RenderContext, op: AddOp, view: SendView): HTMLElement {
  const rows = view.rows.slice(0, SEND_ROWS);
  return h(
    ctx.doc,
    'div',
    { class: 'svc-send-card' },
    view.title && h(ctx.doc, 'p', { class: 'svc-q' }, view.title),
    h(ctx.doc, 'p', {}, view.text),
    button(
      ctx,
      'Send',
      () =>
        ctx.tap(op, view.count, { op: 'query', table: view.table, cols: view.cols, rows, count: view.count }),
      {
        class: 'svc-btn svc-primary svc-send',
        disabled: view.rows.length === 0,
      },
    ),
  );
}

function drawView(ctx: RenderContext, op: AddOp, props: QueryProps, view: QueryView): HTMLElement {
  switch (view.kind) {
    case 'table':
      return tableView(ctx, view);
    case 'list':
      return listView(ctx, op, props, view);
    case 'chart':
      return chartView(ctx, view);
    case 'stat':
      return h(
        ctx.doc,
        'div',
        {},
        view.title && h(ctx.doc, 'p', { class: 'svc-q' }, view.title),
        statBlock(ctx.doc, {
          value: view.value === null ? '–' : String(Number.parseFloat(view.value.toFixed(2))),
          label: view.label,
          ...(view.unit ? { unit: view.unit } : {}),
          ...(view.change === undefined ? {} : { change: view.change }),
          ...(view.good ? { good: view.good } : {}),
          ...(view.spark ? { spark: view.spark } : {}),
        }),
      );
    case 'send':
      return sendView(ctx, op, view);
  }
}

/** `query`: asks the page for the view and draws it, or the reason there is none in its place. */
export function drawQuery(ctx: RenderContext, op: AddOp): HTMLElement {
  const props = op.props as unknown as QueryProps;
  const answer = ctx.options.query?.(props, op.id);
  let body: HTMLElement;
  if (!answer) body = h(ctx.doc, 'p', { class: 'svc-muted' }, 'Tables are not available here.');
  else if (answer.error !== undefined || !answer.view) {
    body = h(
      ctx.doc,
      'p',
      { class: 'svc-note', role: 'note' },
      answer.error ?? `No table called ${props.table} yet.`,
    );
  } else body = drawView(ctx, op, props, answer.view);
  const el = frame(ctx, op, body);
  el.dataset.table = props.table;
  return el;
}
