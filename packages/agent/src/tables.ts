// The agent's tables through svc_tables: a typed handle per table (create, put rows, query rows, delete).
import {
  buildDelete,
  buildPut,
  buildQuery,
  formatChecked,
  type Op,
  ScreenLinesError,
  toLineValue,
} from '@screen-service/screen-lines';
import { InvalidArgumentError, ServiceRefusedError } from './errors.js';
import type { ToolTransport } from './mcp-transport.js';
import type { Cell, ColumnTypes, Row, TableColumns } from './types.js';

/** What svc_tables answers for lines. */
export interface TablesCallResult {
  ok: { op: 'table' | 'put'; table: string; key?: string; line: string; note?: string }[];
  failed: { table: string; key: string; error: string; line: string; code: string }[];
  results: { id: string; table: string; cols: string[]; rows: Cell[][]; count: number; error?: string }[];
  pending: { id: string; prompt: string }[];
}

/** Cells a `put` may write: any of the table's columns, typed; `null` empties a cell. */
export type PutRow<C extends TableColumns> = { key?: string } & {
  [K in keyof C]?: ColumnTypes[C[K]] | null;
};

/** What a `query` reads: equality filters, sort (`-Col` descending), a limit. */
export interface QueryOptions<C extends TableColumns> {
  where?: { [K in keyof C]?: ColumnTypes[C[K]] };
  sort?: readonly (Extract<keyof C, string> | `-${Extract<keyof C, string>}`)[];
  limit?: number;
}

/** One table of the agent, typed by its columns. */
export interface Table<C extends TableColumns> {
  /** `table create`: makes the table, or changes its columns to these. */
  create(): Promise<void>;
  /** One `put` per row (a row with `key` updates or adds that row; without, appends). All or nothing per row. */
  put(rows: readonly PutRow<C>[]): Promise<{ written: number }>;
  /** Rows as objects keyed by column. */
  query(options?: QueryOptions<C>): Promise<Row<C>[]>;
  /** Asks the person to delete a row (a Delete / Keep card; only their tap deletes). */
  delete(key: string): Promise<void>;
}

/** The tables of the client's agent. */
export interface Tables {
  /** A typed handle on one table. */
  table<const C extends TableColumns>(name: string, columns: C): Table<C>;
  /** Runs table lines (text or ops) as they are. */
  run(lines: string | readonly Op[]): Promise<TablesCallResult>;
}

/** A table line the service refused: `failed` holds each line and why. */
export class TableWriteError extends ServiceRefusedError {
  readonly failed: TablesCallResult['failed'];
  constructor(failed: TablesCallResult['failed']) {
    super(
      (failed[0]?.code ?? 'invalid_lines').toLowerCase(),
      failed.map((f) => `${f.line}: ${f.error}`).join('\n'),
      { details: failed },
    );
    this.failed = failed;
  }
}

export function createTables(transport: ToolTransport, agent: () => string | undefined): Tables {
  const run = async (lines: string | readonly Op[]) => {
    const text = typeof lines === 'string' ? lines : printed(lines);
    const who = agent();
    return (await transport.call('svc_tables', {
      lines: text,
      ...(who ? { agent: who } : {}),
    })) as unknown as TablesCallResult;
  };
  const write = async (ops: readonly Op[]) => {
    const r = await run(ops);
    if (r.failed.length > 0) throw new TableWriteError(r.failed);
    return r;
  };
  return {
    run,
    table<const C extends TableColumns>(name: string, columns: C): Table<C> {
      return {
        async create() {
          const cols = Object.entries(columns).map(([n, type]) => ({ name: n, type }));
          await write([{ op: 'table', name, cols }]);
        },
        async put(rows) {
          const ops = rows.map(({ key, ...cells }) => buildPut(name, cells as Record<string, Cell>, key));
          return { written: (await write(ops)).ok.length };
        },
        async query(options = {}) {
          const where = Object.entries(options.where ?? {}).map(([col, v]) => ({
            col,
            op: '=' as const,
            value: toLineValue(v as Cell, col),
          }));
          const sort = (options.sort ?? []).map((s) =>
            s.startsWith('-') ? { col: s.slice(1), desc: true } : { col: s, desc: false },
          );
          const q = buildQuery({
            table: name,
            // The row key is not a column a query shows by default: name it, then every column in order.
            cols: ['key', ...Object.keys(columns)],
            where,
            sort,
            ...(options.limit !== undefined ? { limit: options.limit } : {}),
          });
          const r = await write([q]);
          const result = r.results[0];
          if (!result) return [];
          if (result.error !== undefined) throw new ServiceRefusedError('invalid_lines', result.error);
          return result.rows.map(
            (cells) => Object.fromEntries(result.cols.map((c, i) => [c, cells[i] ?? null])) as Row<C>,
          );
        },
        async delete(key) {
          await write([buildDelete(name, key)]);
        },
      };
    },
  };
}

function printed(ops: readonly Op[]): string {
  try {
    return formatChecked(ops);
  } catch (err) {
    if (err instanceof ScreenLinesError) throw new InvalidArgumentError(err.message, err);
    throw err;
  }
}
