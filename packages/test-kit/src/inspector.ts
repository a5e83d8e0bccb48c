// A store-neutral look at a test database: counts, rows and the odd update no repository makes (ADR 0241).
import type { SqliteDb } from '@screen-service/store-sqlite';

/** Column values a row must have (every one of them), by column name. */
export type RowMatch = Record<string, string | number | boolean | null>;

/**
 * A store-neutral look at a test's database, for what a test checks or sets that no repository does (a
 * suspended account, a hash as stored, rows left behind). The same calls work on the SQLite file and on
 * PostgreSQL, so a rule test runs on both stores (the registry's and the core's postgres runs).
 */
export interface TestInspector {
  /** How many rows of `table` match `where`. */
  count(table: string, where?: RowMatch): Promise<number>;
  /** The rows of `table` matching `where`, every column (numbers as numbers), in no set order. */
  rows(table: string, where?: RowMatch): Promise<Record<string, unknown>[]>;
  /** Sets `set` on the rows of `table` matching `where`; how many rows changed. */
  update(table: string, set: RowMatch, where: RowMatch): Promise<number>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * The SQL of an inspector call, with `placeholder(n)` for the n-th value (1-based): `?` on SQLite, `$n` on
 * PostgreSQL. Names must be plain identifiers (they are written into the statement).
 *
 * @example `inspectorSql('count', 'grants', {}, { user_id: id }, () => '?')`
 */
export function inspectorSql(
  kind: 'count' | 'rows' | 'update',
  table: string,
  set: RowMatch,
  where: RowMatch,
  placeholder: (n: number) => string,
): { sql: string; values: unknown[] } {
  const names = [table, ...Object.keys(set), ...Object.keys(where)];
  const bad = names.find((n) => !IDENTIFIER.test(n));
  if (bad !== undefined) throw new Error(`inspector: "${bad}" is not a plain table or column name`);
  const values: unknown[] = [];
  const bind = (v: unknown) => {
    values.push(v);
    return placeholder(values.length);
  };
  const assignments = Object.entries(set).map(([c, v]) => `${c} = ${bind(v)}`);
  const conditions = Object.entries(where).map(([c, v]) =>
    v === null ? `${c} IS NULL` : `${c} = ${bind(v)}`,
  );
  const filter = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  if (kind === 'update') {
    if (assignments.length === 0) throw new Error('inspector: update needs at least one column to set');
    return { sql: `UPDATE ${table} SET ${assignments.join(', ')}${filter}`, values };
  }
  return { sql: `SELECT ${kind === 'count' ? 'COUNT(*) AS n' : '*'} FROM ${table}${filter}`, values };
}

/** The inspector of a SQLite test database (booleans are stored as 1 and 0). */
export function sqliteInspector(db: SqliteDb): TestInspector {
  const sqlite = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
  const run = (kind: 'count' | 'rows' | 'update', table: string, set: RowMatch, where: RowMatch) => {
    const { sql, values } = inspectorSql(kind, table, set, where, () => '?');
    return { statement: db.prepare(sql), values: values.map(sqlite) };
  };
  return {
    async count(table, where = {}) {
      const { statement, values } = run('count', table, {}, where);
      return (statement.get(...values) as { n: number }).n;
    },
    async rows(table, where = {}) {
      const { statement, values } = run('rows', table, {}, where);
      return statement.all(...values) as Record<string, unknown>[];
    },
    async update(table, set, where) {
      const { statement, values } = run('update', table, set, where);
      return statement.run(...values).changes;
    },
  };
}

/** What {@link queryInspector} runs statements with: a PostgreSQL pool's or client's `query`. */
export type InspectorQuery = (
  text: string,
  values: unknown[],
) => Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;

/**
 * The inspector of a PostgreSQL test database, over `query` (numbered `$n` placeholders). Counts and
 * BIGINT columns come back as JavaScript numbers, as the store reads them.
 *
 * @example `const inspect = queryInspector((text, values) => pool.query({ text, values, types }));`
 */
export function queryInspector(query: InspectorQuery): TestInspector {
  const run = (kind: 'count' | 'rows' | 'update', table: string, set: RowMatch, where: RowMatch) => {
    const { sql, values } = inspectorSql(kind, table, set, where, (n) => `$${n}`);
    return query(sql, values);
  };
  return {
    async count(table, where = {}) {
      return Number((await run('count', table, {}, where)).rows[0]?.n ?? 0);
    },
    async rows(table, where = {}) {
      return (await run('rows', table, {}, where)).rows;
    },
    async update(table, set, where) {
      return (await run('update', table, set, where)).rowCount ?? 0;
    },
  };
}
