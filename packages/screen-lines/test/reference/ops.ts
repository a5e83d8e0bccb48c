// The ops a parse produces: the shapes other packages consume (table words are doc3's "Parser output").

/** A value as written in a `put` or a `where` clause, typed by the tokenizer; the store fits it to its column. */
export type LineValue =
  | { kind: 'number'; value: number; text: string }
  | { kind: 'text'; value: string }
  | { kind: 'date'; value: string }
  | { kind: 'datetime'; value: string }
  | { kind: 'today'; offset: number }
  | { kind: 'now' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'empty' };

/** A component line: `<component>[@<id>] <arguments>`. `group` names the open group the line joined. */
export interface AddOp {
  op: 'add';
  preset: string;
  id: string;
  props: Record<string, unknown>;
  group?: string;
}

/** A patch line `@<id> <prop>=<value> ...`: changes props of an earlier component (maybe on an earlier screen). */
export interface PatchOp {
  op: 'patch';
  id: string;
  props: Record<string, PatchValue>;
  /** The component's preset when it was written earlier in the same text (the props were then checked). */
  preset?: string;
}

/** A patched prop: `null` (written `prop=`) puts the prop back to its default. */
export type PatchValue = string | number | boolean | string[] | null;

/** `group[@<id>] [row|stack|card] [<title>]`: later component lines join it until `end` or the next group. */
export interface GroupOp {
  op: 'group';
  id: string;
  layout: 'stack' | 'row' | 'card';
  title?: string;
}

/** `end`: closes the open group. */
export interface EndOp {
  op: 'end';
  id: string;
}

/** `theme <key>=<value> ...`: the agent restyles itself with a look object (doc2 "Look"); the theme package cleans it. */
export interface ThemeOp {
  op: 'theme';
  look: Record<string, unknown>;
}

/** A column of `table create`. */
export interface TableColumn {
  name: string;
  type: 'text' | 'number' | 'date' | 'bool';
  unit?: string;
}

/** `table create <name> <col>:<type>[:<unit>] ...` */
export interface TableOp {
  op: 'table';
  screen?: string;
  name: string;
  cols: TableColumn[];
}

/** `table drop <name>` */
export interface DropOp {
  op: 'drop';
  screen?: string;
  name: string;
}

/** `put <table> [<key>] <col>=<value> ... [+delete]` */
export interface PutOp {
  op: 'put';
  screen?: string;
  table: string;
  key?: string;
  values: Record<string, LineValue>;
  delete?: true;
}

/** Every op a parse can produce. */
export type Op = AddOp | PatchOp | GroupOp | EndOp | ThemeOp | TableOp | DropOp | PutOp;

/** Comparison operators of a `where` clause (`~` is contains). */
export type WhereOperator = '=' | '!=' | '>' | '<' | '>=' | '<=' | '~';

/** Props of a `query` component (`{op:'add', preset:'query', id, props}`). */
export interface QueryProps {
  table: string;
  where: { col: string; op: WhereOperator; value: LineValue }[];
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

/** A tap as the person's app reports it; `value` depends on the component (see the catalog). */
export interface TapEvent {
  id: string;
  preset: string;
  value: unknown;
  screen?: string;
  [key: string]: unknown;
}
