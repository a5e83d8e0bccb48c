// Turns a query's answer into the view data the renderer draws: table, list, chart, stat or send card.
import type { QueryProps } from '@screen-service/screen-lines';
import type { Cell } from './model.js';
import type { PlanOutput } from './query-plan.js';

/** A table view: the answer as it is. */
export interface TableView {
  kind: 'table';
  title?: string;
  cols: PlanOutput[];
  rows: Cell[][];
  /** Row keys (plain queries) so a tap can change a row; empty for totals. */
  keys: string[];
}

/** A list view: one item per row, cells joined with ` · `; `checked` when `check=Col` names a bool column. */
export interface ListView {
  kind: 'list';
  title?: string;
  check?: string;
  items: { key?: string; text: string; checked?: boolean }[];
}

/** A chart view over the answer rows. */
export interface ChartView {
  kind: 'chart';
  title?: string;
  type: 'line' | 'bar' | 'area' | 'scatter' | 'pie' | 'donut';
  x: string;
  y: string[];
  unit?: string;
  min?: number;
  max?: number;
  stack: boolean;
  cols: PlanOutput[];
  rows: Cell[][];
}

/** A stat view: the last row's value, and with two or more rows the change and a spark line. */
export interface StatView {
  kind: 'stat';
  title?: string;
  label: string;
  y: string;
  value: number | null;
  unit?: string;
  change?: number | null;
  spark?: number[];
  good?: 'up' | 'down';
}

/** A send card: the person's tap hands `rows` (in `cols` order, at most 200) to the agent. */
export interface SendView {
  kind: 'send';
  title?: string;
  text: string;
  table: string;
  cols: string[];
  rows: Cell[][];
  count: number;
}

/** Any view a query draws. */
export type QueryView = TableView | ListView | ChartView | StatView | SendView;

/** The rows a view is built from. */
export interface ViewInput {
  cols: PlanOutput[];
  rows: Cell[][];
  keys: string[];
  count: number;
}

/** A view, or why the view's props do not fit the answer. */
export type ViewResult = { ok: true; view: QueryView } | { ok: false; message: string };

/** The event the agent hears when the person taps Send (doc3 "Events"). */
export interface SendEvent {
  id: string;
  preset: 'query';
  op: 'query';
  table: string;
  cols: string[];
  rows: Cell[][];
  count: number;
}

/**
 * The event for the person's Send tap on a send view of query `id`.
 *
 * @example
 * ```ts
 * if (result.view?.kind === 'send') relay(sendEvent(result.id, result.view));
 * ```
 */
export function sendEvent(id: string, view: SendView): SendEvent {
  return {
    id,
    preset: 'query',
    op: 'query',
    table: view.table,
    cols: view.cols,
    rows: view.rows,
    count: view.count,
  };
}

/** A cell as a person reads it: dates as written, bools on/off, numbers with their unit. */
export function formatCell(cell: Cell, col: PlanOutput): string {
  if (cell === null) return '';
  if (typeof cell === 'boolean') return cell ? 'on' : 'off';
  if (typeof cell === 'number') return col.unit ? `${cell} ${col.unit}` : String(cell);
  return cell;
}

function numberCol(input: ViewInput, name: string, view: string): number {
  const index = input.cols.findIndex((c) => c.name === name);
  if (index < 0) {
    throw new ViewError(
      `${view} y=${name}: the answer has columns ${input.cols.map((c) => c.name).join(', ')}`,
    );
  }
  if (input.cols[index]!.type !== 'number')
    throw new ViewError(`${view} y=${name}: ${name} is not a number column`);
  return index;
}

class ViewError extends Error {}

function listView(props: QueryProps, input: ViewInput): ListView {
  const check = props.check === undefined ? -1 : input.cols.findIndex((c) => c.name === props.check);
  if (props.check !== undefined && (check < 0 || input.cols[check]!.type !== 'bool')) {
    throw new ViewError(`check=${props.check} needs a bool column of the answer`);
  }
  const items = input.rows.map((row, r) => {
    const text = row
      .map((cell, i) => (i === check ? '' : formatCell(cell, input.cols[i]!)))
      .filter((t) => t !== '')
      .join(' · ');
    return {
      ...(input.keys[r] === undefined ? {} : { key: input.keys[r] }),
      text,
      ...(check >= 0 ? { checked: row[check] === true } : {}),
    };
  });
  return { kind: 'list', ...(props.check ? { check: props.check } : {}), items };
}

function chartView(props: QueryProps, input: ViewInput): ChartView {
  const x = props.chart?.x ?? input.cols[0]?.name ?? '';
  if (!input.cols.some((c) => c.name === x))
    throw new ViewError(`chart x=${x} is not a column of the answer`);
  const y =
    props.y.length > 0
      ? props.y
      : input.cols.filter((c) => c.type === 'number' && c.name !== x).map((c) => c.name);
  if (y.length === 0)
    throw new ViewError('a chart needs a number column; add y=Col or a total such as sum=Col');
  const unit = props.chart?.unit ?? input.cols[numberCol(input, y[0]!, 'chart')]!.unit;
  for (const name of y) numberCol(input, name, 'chart');
  return {
    kind: 'chart',
    type: props.chart?.type ?? 'line',
    x,
    y,
    ...(unit ? { unit } : {}),
    ...(props.chart?.min === undefined ? {} : { min: props.chart.min }),
    ...(props.chart?.max === undefined ? {} : { max: props.chart.max }),
    stack: props.chart?.stack ?? false,
    cols: input.cols,
    rows: input.rows,
  };
}

function statView(props: QueryProps, input: ViewInput): StatView {
  const y = props.y[0] ?? input.cols.find((c) => c.type === 'number')?.name;
  if (!y) throw new ViewError('a stat needs a number column; add y=Col or a total such as sum=Col');
  const index = numberCol(input, y, 'stat');
  const values = input.rows.map((r) => r[index] as number | null);
  const last = values.at(-1) ?? null;
  const before = values.at(-2) ?? null;
  const unit = input.cols[index]!.unit;
  return {
    kind: 'stat',
    label: props.label ?? y,
    y,
    value: last,
    ...(unit ? { unit } : {}),
    ...(values.length >= 2
      ? {
          change: last === null || before === null ? null : last - before,
          spark: values.filter((v): v is number => v !== null),
        }
      : {}),
    ...(props.good ? { good: props.good } : {}),
  };
}

/**
 * Builds the view a query's `as` asks for from its answer.
 *
 * @example
 * ```ts
 * const r = buildView(props, 'Weights', { cols, rows, keys, count });
 * if (r.ok && r.view.kind === 'stat') draw(r.view.value, r.view.change);
 * ```
 */
export function buildView(props: QueryProps, table: string, input: ViewInput): ViewResult {
  try {
    const title = props.title === undefined ? {} : { title: props.title };
    switch (props.as) {
      case 'list':
        return { ok: true, view: { ...listView(props, input), ...title } };
      case 'chart':
        return { ok: true, view: { ...chartView(props, input), ...title } };
      case 'stat':
        return { ok: true, view: { ...statView(props, input), ...title } };
      case 'send': {
        const text = `Send ${input.rows.length} rows from ${table}?`;
        const cols = input.cols.map((c) => c.name);
        return {
          ok: true,
          view: { kind: 'send', ...title, text, table, cols, rows: input.rows, count: input.count },
        };
      }
      default:
        return {
          ok: true,
          view: { kind: 'table', ...title, cols: input.cols, rows: input.rows, keys: input.keys },
        };
    }
  } catch (error) {
    if (error instanceof ViewError) return { ok: false, message: error.message };
    throw error;
  }
}
