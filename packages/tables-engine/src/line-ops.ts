// Local copy of the screen-lines op shapes this package consumes (contract); replaced by imports after the merge.

export type LineValue =
  | { kind: 'number'; value: number; text: string }
  | { kind: 'text'; value: string }
  | { kind: 'date'; value: string }
  | { kind: 'datetime'; value: string }
  | { kind: 'today'; offset: number }
  | { kind: 'now' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'empty' };

export interface TableOp {
  op: 'table';
  screen?: string;
  name: string;
  cols: { name: string; type: 'text' | 'number' | 'date' | 'bool'; unit?: string }[];
}

export interface DropOp {
  op: 'drop';
  screen?: string;
  name: string;
}

export interface PutOp {
  op: 'put';
  screen?: string;
  table: string;
  key?: string;
  values: Record<string, LineValue>;
  delete?: true;
}

export interface QueryProps {
  table: string;
  where: { col: string; op: '=' | '!=' | '>' | '<' | '>=' | '<=' | '~'; value: LineValue }[];
  sort: { col: string; desc: boolean }[];
  limit?: number;
  cols: string[];
  group?: { col: string; by?: 'day' | 'week' | 'month' };
  y: string[];
  sum: string[];
  avg: string[];
  min: string[];
  max: string[];
  count: boolean;
  as: 'table' | 'list' | 'chart' | 'stat' | 'send';
  chart?: {
    type?: 'line' | 'bar' | 'area' | 'scatter' | 'pie' | 'donut';
    x?: string;
    unit?: string;
    min?: number;
    max?: number;
    stack?: boolean;
  };
  check?: string;
  label?: string;
  good?: 'up' | 'down';
  title?: string;
}

export interface QueryOp {
  op: 'add';
  preset: 'query';
  id: string;
  props: QueryProps;
}
