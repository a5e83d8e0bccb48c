// The `query` entry of the catalog: its arguments are read by query.ts; this is the data the guide and renderer use.

import type { QueryProps } from '../ops.js';
import { queryTap, SEND_ROWS } from './query-taps.js';
import { CHART_TYPES } from './shared.js';
import type { ComponentSpec } from './types.js';
import { z } from './zod.js';

const lineValue = z.union([
  z.object({ kind: z.literal('number'), value: z.number(), text: z.string() }),
  z.object({ kind: z.enum(['text', 'date', 'datetime']), value: z.string() }),
  z.object({ kind: z.literal('today'), offset: z.number().int() }),
  z.object({ kind: z.literal('now') }),
  z.object({ kind: z.literal('bool'), value: z.boolean() }),
  z.object({ kind: z.literal('empty') }),
]);
const cols = z.array(z.string());

/** A query's props before its clauses are read: every list empty, no count, drawn as a table. */
export function emptyQueryProps(table: string): QueryProps {
  return {
    table,
    where: [],
    sort: [],
    cols: [],
    y: [],
    sum: [],
    avg: [],
    min: [],
    max: [],
    count: false,
    as: 'table',
  };
}

const { table: _table, ...queryDefaults } = emptyQueryProps('');

export const querySpec: ComponentSpec = {
  name: 'query',
  summary: 'draws rows of a table live: table, list, chart, stat or a send card',
  usage:
    'query <table> [where=Col<op>value|...] [sort=Col|-Col] [limit=N] [cols=A|B] [group=Col[:day|:week|:month]] [sum=A] [avg=A] [min=A] [max=A] [+count] [as table|list|chart [type]|stat|send] ["<title>"]',
  examples: [
    'query weights where=Day>=today-7 sort=-Day limit=7',
    'query@trend weights as chart line x=Day y=Weight unit=kg min=60 "Last weeks"',
    'query shopping where=Done=off as list check=Done',
    'query runs group=Day:week sum=Km +count as stat label="Km this week" good=up',
  ],
  slots: [{ prop: 'table', kind: 'word', required: true, hint: '<table>' }],
  settings: [
    {
      name: 'where',
      kind: 'list',
      hint: 'Col<op>value joined by |; ops = != > < >= <= ~ (contains); Col= empty, Col!= filled',
    },
    { name: 'sort', kind: 'list', hint: 'Col or -Col (descending) joined by |' },
    { name: 'limit', kind: 'int', hint: 'rows shown (default 50, at most 500)' },
    { name: 'cols', kind: 'list', hint: 'only these columns' },
    { name: 'group', kind: 'text', hint: 'one row per value: Col, Col:day, Col:week, Col:month' },
    { name: 'sum', kind: 'list', hint: 'totals of columns' },
    { name: 'avg', kind: 'list', hint: 'averages' },
    { name: 'min', kind: 'list', hint: 'smallest (in a chart a number is the axis minimum)' },
    { name: 'max', kind: 'list', hint: 'largest (in a chart a number is the axis maximum)' },
    { name: 'y', kind: 'list', hint: 'chart series or the stat column' },
    { name: 'x', kind: 'text', hint: 'chart x column' },
    { name: 'type', kind: 'word', words: CHART_TYPES, hint: 'chart kind (or as chart <type>)' },
    { name: 'unit', kind: 'text', hint: 'chart unit' },
    { name: 'check', kind: 'text', hint: 'list view: the bool column shown as a checkbox' },
    { name: 'label', kind: 'text', hint: 'stat view label' },
    { name: 'good', kind: 'word', words: ['up', 'down'], hint: 'stat view: which direction is good' },
  ],
  flags: [
    { name: 'count', hint: 'adds a Count column' },
    { name: 'stack', hint: 'chart view: stack the series' },
  ],
  props: z.object({
    table: z.string(),
    where: z.array(
      z.object({ col: z.string(), op: z.enum(['=', '!=', '>', '<', '>=', '<=', '~']), value: lineValue }),
    ),
    sort: z.array(z.object({ col: z.string(), desc: z.boolean() })),
    limit: z.number().int().min(1).max(500).optional(),
    cols,
    group: z.object({ col: z.string(), by: z.enum(['day', 'week', 'month']).optional() }).optional(),
    y: cols,
    sum: cols,
    avg: cols,
    min: cols,
    max: cols,
    count: z.boolean(),
    as: z.enum(['table', 'list', 'chart', 'stat', 'send']),
    chart: z
      .object({
        type: z.enum(CHART_TYPES).optional(),
        x: z.string().optional(),
        unit: z.string().optional(),
        min: z.number().optional(),
        max: z.number().optional(),
        stack: z.boolean().optional(),
      })
      .optional(),
    check: z.string().optional(),
    label: z.string().optional(),
    good: z.enum(['up', 'down']).optional(),
    title: z.string().optional(),
  }),
  defaults: queryDefaults,
  limits: { limit: 500, defaultLimit: 50, sendRows: SEND_ROWS },
  staged: false,
  tapKey: 'row',
  events: [
    {
      when: 'the person changes a row in the view (already written)',
      quiet: false,
      example: {
        id: 'n1',
        preset: 'query',
        value: 'milk',
        op: 'row',
        table: 'shopping',
        key: 'milk',
        values: { Done: true },
      },
    },
    {
      when: 'the person taps Send on an as send view',
      quiet: false,
      example: {
        id: 'n1',
        preset: 'query',
        value: 2,
        op: 'query',
        table: 'weights',
        cols: ['Day', 'Weight'],
        rows: [
          ['2026-11-20', 72.5],
          ['2026-11-21', 72.1],
        ],
        count: 2,
      },
    },
  ],
  tap: queryTap,
};
