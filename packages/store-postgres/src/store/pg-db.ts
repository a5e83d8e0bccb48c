// The store's one handle on PostgreSQL: parameterised queries on a pool, numbers for BIGINT, and transactions.
import { StoreTransactionError } from '@screen-service/registry/model';
import pg from 'pg';
import { withPooledClient } from './pooled-client.js';

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

// Prepared (named) statements: each distinct statement text gets a name the first time it runs, and each
// pooled connection parses and plans it once, then only binds and executes it (issue 42: the server's
// parse and plan of the store's CTE statements were a large part of a write's cost). The store's texts are
// fixed (values are always parameters), so the set is bounded; past MAX_NAMED texts run unnamed anyway.
const MAX_NAMED = 2000;
const names = new Map<string, string | null>();

function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined) {
    name = names.size < MAX_NAMED ? `svc_${names.size.toString(36)}` : null;
    names.set(text, name);
  }
  return name ?? undefined;
}

/**
 * True for PostgreSQL's refusal of a prepared statement whose result columns changed under it (a newer
 * instance migrated the table a `SELECT *` reads): that text then runs unnamed from now on.
 */
function isStalePlan(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}

/** A pooled connection or client with the store's type parsers on every query, as named statements. */
function typed(target: pg.Pool | pg.PoolClient): Queryable {
  const run = <R extends pg.QueryResultRow>(text: string, values: unknown[], name: string | undefined) =>
    target.query<R>(
      name === undefined ? { text, values, types: TYPES } : { text, values, types: TYPES, name },
    );
  return {
    async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      const name = statementName(text);
      try {
        return await run<R>(text, values, name);
      } catch (err) {
        if (name === undefined || !isStalePlan(err)) throw err;
        names.set(text, null);
        // On the pool the statement ran alone and simply runs again unnamed; inside a transaction the refusal
        // aborted it, so that transaction fails once (and a retry runs the text unnamed).
        if (target instanceof pg.Pool) return await run<R>(text, values, undefined);
        throw err;
      }
    },
  };
}

/** The store's database: plain queries on the pool, and `tx` for one transaction on one connection. */
export interface PgDb extends Queryable {
  readonly pool: pg.Pool;
  /**
   * Runs `fn` in one transaction (READ COMMITTED); commits on return, rolls back on throw. On a
   * transaction's own handle ({@link PgDb.transaction}) it is a savepoint inside that transaction.
   */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * One transaction on one pooled connection, handed to `fn` as a PgDb of its own (every query of it, and
   * every repository built on it, runs in the transaction). It refuses queries once the transaction ended.
   */
  transaction<T>(fn: (db: PgDb) => Promise<T>): Promise<T>;
  /** The first row, or undefined. */
  one<R extends pg.QueryResultRow = Row>(text: string, values?: unknown[]): Promise<R | undefined>;
  /** Every row. */
  all<R extends pg.QueryResultRow = Row>(text: string, values?: unknown[]): Promise<R[]>;
  /** How many rows the statement changed. */
  run(text: string, values?: unknown[]): Promise<number>;
}

/**
 * Runs `fn` between BEGIN and COMMIT on one pooled client (ROLLBACK when it throws). BEGIN is not awaited
 * before the body starts: on a pipelining pool ({@link poolOptions}) it goes out with the body's first
 * statement, one round trip for both; on any other pool the client queues it ahead of that statement, as
 * before. A BEGIN that failed fails the body's first statement too, so nothing runs outside the transaction.
 */
function onOneClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withPooledClient(pool, async (client) => {
    // BEGIN and what the body sends before its first await leave in one write (one system call and one
    // packet instead of one each: the writes were a third of a tool call's CPU in the profile, issue 42).
    const stream = socketOf(client);
    stream?.cork();
    process.nextTick(() => stream?.uncork());
    const begun = client.query('BEGIN');
    // Its failure is reported where it is awaited below; this keeps it from being an unhandled rejection.
    begun.catch(() => {});
    try {
      const out = await fn(client);
      await begun;
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  });
}

/** The client's socket when node-postgres exposes it (a corked socket holds writes until uncorked). */
function socketOf(client: pg.PoolClient): { cork(): void; uncork(): void } | undefined {
  const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } })
    .connection?.stream;
  return typeof stream?.cork === 'function' && typeof stream.uncork === 'function'
    ? (stream as { cork(): void; uncork(): void })
    : undefined;
}

/**
 * The options of the store's own pool: `max` connections, in pipeline mode (statements issued together
 * are written together and answered in order; each still waits for its own answer), which node-postgres
 * offers since 8.17 and the type definitions do not name yet.
 */
export function poolOptions(connectionString: string, max: number): pg.PoolConfig {
  return { connectionString, max, pipeline: true } as pg.PoolConfig;
}

/** The query helpers over one handle. */
function helpers(q: Queryable): Pick<PgDb, 'query' | 'one' | 'all' | 'run'> {
  return {
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
  };
}

let savepoints = 0;

/** A PgDb whose every query runs on `client`, inside the transaction open on it, while `live()` holds. */
function transactionDb(pool: pg.Pool, client: pg.PoolClient, live: () => boolean): PgDb {
  const q = typed(client);
  const checked: Queryable = {
    query(text, values) {
      if (!live()) {
        return Promise.reject(
          new StoreTransactionError(
            'TX_ENDED',
            'A query ran on a transaction that already ended: use a tx only inside its body.',
          ),
        );
      }
      return q.query(text, values);
    },
  };
  const db: PgDb = {
    pool,
    ...helpers(checked),
    async tx(fn) {
      // A repository's own transaction inside this one: a savepoint, so its failure undoes only its part.
      const name = `svc_sp${++savepoints}`;
      await checked.query(`SAVEPOINT ${name}`);
      try {
        const out = await fn(checked);
        await checked.query(`RELEASE SAVEPOINT ${name}`);
        return out;
      } catch (err) {
        await checked.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => {});
        throw err;
      }
    },
    transaction(fn) {
      return fn(db);
    },
  };
  return db;
}

/** Wraps a pool. */
export function createPgDb(pool: pg.Pool): PgDb {
  return {
    pool,
    ...helpers(typed(pool)),
    tx(fn) {
      return onOneClient(pool, (client) => fn(typed(client)));
    },
    transaction(fn) {
      let live = true;
      return onOneClient(pool, async (client) => {
        try {
          return await fn(transactionDb(pool, client, () => live));
        } finally {
          live = false;
        }
      });
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

/** The lock clause a read asked for (`ReadOptions.forUpdate`): its row stays locked until the transaction ends. */
export function forUpdate(options: { forUpdate?: boolean } | undefined): string {
  return options?.forUpdate ? ' FOR UPDATE' : '';
}
