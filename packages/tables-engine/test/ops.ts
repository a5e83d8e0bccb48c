// Test helpers that build table ops the way the screen-lines parser types them, without writing lines.
import {
  type DropOp,
  type LineValue,
  type PutOp,
  parse,
  type QueryProps,
  type TableOp,
} from '@screen-service/screen-lines';
import type { OpLine, QueryOp } from '../src/index.js';

type Plain = number | string | boolean | null | LineValue;

/** Types a plain value as the tokenizer would: numbers, dates, today±N, now, on/off, empty, words. */
export function lv(value: Plain): LineValue {
  if (value === null) return { kind: 'empty' };
  if (typeof value === 'object') return value;
  if (typeof value === 'number') return { kind: 'number', value, text: String(value) };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return { kind: 'date', value };
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return { kind: 'datetime', value };
  const today = /^today([+-]\d+)?$/.exec(value);
  if (today) return { kind: 'today', offset: Number(today[1] ?? 0) };
  if (value === 'now') return { kind: 'now' };
  return { kind: 'text', value };
}

/** `table create name Col:type[:unit] ...` */
export function table(name: string, ...cols: string[]): OpLine {
  const op: TableOp = {
    op: 'table',
    name,
    cols: cols.map((c) => {
      const [n, type, unit] = c.split(':');
      return { name: n!, type: type as TableOp['cols'][number]['type'], ...(unit ? { unit } : {}) };
    }),
  };
  return { op, line: `table create ${name} ${cols.join(' ')}` };
}

/** `put table [key] Col=value ... [+delete]` */
export function put(
  name: string,
  key: string | undefined,
  values: Record<string, Plain> = {},
  del = false,
): OpLine {
  const op: PutOp = {
    op: 'put',
    table: name,
    ...(key === undefined ? {} : { key }),
    values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, lv(v)])),
    ...(del ? { delete: true as const } : {}),
  };
  const parts = Object.entries(values).map(([k, v]) => `${k}=${v ?? ''}`);
  return { op, line: ['put', name, key, ...parts, del ? '+delete' : undefined].filter(Boolean).join(' ') };
}

/** `table drop name` */
export function drop(name: string): OpLine {
  const op: DropOp = { op: 'drop', name };
  return { op, line: `table drop ${name}` };
}

let ids = 0;

/** Where clauses as `[Col, op, value]`. */
export type Where = [string, QueryProps['where'][number]['op'], Plain][];

/** Query props with plain where clauses. */
export type QueryInput = Partial<Omit<QueryProps, 'where'>> & { where?: Where };

/** `query table ...`: the parser's props for a bare query, with `props` laid over them. */
export function query(name: string, props: QueryInput = {}): OpLine {
  const { where = [], ...rest } = props;
  const parsed = parse(`query ${name}`).ops[0] as unknown as QueryOp;
  const full: QueryProps = {
    ...parsed.props,
    ...rest,
    where: where.map(([col, op, value]) => ({ col, op, value: lv(value) })),
  };
  const op: QueryOp = { op: 'add', preset: 'query', id: `q${++ids}`, props: full };
  return { op, line: `query ${name}` };
}

/** Sort terms from `Col` / `-Col`. */
export function sort(...terms: string[]): QueryProps['sort'] {
  return terms.map((t) => (t.startsWith('-') ? { col: t.slice(1), desc: true } : { col: t, desc: false }));
}
