// The store's one handle on PostgreSQL: parameterised queries on a pool, numbers for BIGINT, and transactions.
import pg from 'pg';

/** What the repositories run: a pool, or one client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = Row>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export type Row = Record<string, unknown>;

// BIGINT (int8) and NUMERIC come back as strings by default; every such column here is a time in ms, a
// count or a seq, far below 2^53, so they are read as numbers. Set per query, so a pool the caller owns
// keeps its own parsers for its own queries.
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const toNumber = (v: string) => Number(v);
const TYPES = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8_OID || oid === NUMERIC_OID) return toNumber;
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/** A pooled connection or client with the store's type parsers on every query. */
function typed(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    query: <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
      target.query<R>({ text, values, types: TYPES }),
  };
}

/** The store's database: plain queries on the pool, and `tx` for one transaction on one connection. */
export interface PgDb extends Queryable {
  readonly pool: pg.Pool;
  /** Runs `fn` in one transaction (READ COMMITTED); commits on return, rolls back on throw. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** The first row, or undefined. */
  one<R extends pg.QueryResultRow = Row>(text: string, values?: unknown[]): Promise<R | undefined>;
  /** Every row. */
  all<R extends pg.QueryResultRow = Row>(text: string, values?: unknown[]): Promise<R[]>;
  /** How many rows the statement changed. */
  run(text: string, values?: unknown[]): Promise<number>;
}

/** Wraps a pool. */
export function createPgDb(pool: pg.Pool): PgDb {
  const q = typed(pool);
  return {
    pool,
    query: q.query,
    async one(text, values) {
      return (await q.query(text, values)).rows[0] as never;
    },
    async all(text, values) {
      return (await q.query(text, values)).rows as never;
    },
    async run(text, values) {
      return (await q.query(text, values)).rowCount ?? 0;
    },
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(typed(client));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
  };
}

/** The first row of a query on any handle. */
export async function first<R extends pg.QueryResultRow = Row>(
  q: Queryable,
  text: string,
  values?: unknown[],
): Promise<R | undefined> {
  return (await q.query<R>(text, values)).rows[0];
}

/** How many rows a statement on any handle changed. */
export async function changes(q: Queryable, text: string, values?: unknown[]): Promise<number> {
  return (await q.query(text, values)).rowCount ?? 0;
}

/** True when PostgreSQL refused a row for a unique constraint (optionally the named one). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  if (e?.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint;
}
