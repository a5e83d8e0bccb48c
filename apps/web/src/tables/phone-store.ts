// The phone's tables behind the worker: one SQLite database per agent, screens landed once in the same transaction as their writes.
import { format, type Op } from '@screen-service/screen-lines';
import { type CallContext, type OpLine, runOps, type TableStore } from '@screen-service/tables-engine';
import {
  createWasmSqlDriver,
  createWasmSqliteStore,
  type SqlDriver,
  type WasmDatabase,
} from '@screen-service/tables-engine/browser-sqlite';
import type { Answer, Moment, Replies, Request } from './protocol.js';

/** The requests the store answers (`boot` is the worker's own). */
type StoreRequest = Exclude<Request, { kind: 'boot' }>;

/** Where the databases live: the OPFS pool in the worker, memory in unit tests. */
export interface DatabasePool {
  /** Opens (creating when missing) a database file. */
  open(file: string): WasmDatabase & { close(): void };
  /** Deletes a closed database file; false when there was none. */
  unlink(file: string): boolean;
  /** Database files present. */
  files(): string[];
  /** Makes room for `count` more files beside those present (a database and its journal each take one). */
  reserve(count: number): Promise<void>;
}

interface AgentDb {
  db: WasmDatabase & { close(): void };
  driver: SqlDriver;
  store: TableStore;
}

/** The person on the phone store: every table there is the person's; the agent is the holder. */
export const PHONE_OWNER = 'me';
const PREFIX = '/agent-';
const SUFFIX = '.sqlite3';

/** The file of an agent's tables (agent ids are ids; anything else is escaped). */
export function fileOf(agent: string): string {
  return `${PREFIX}${agent.replace(/[^A-Za-z0-9_-]/g, (c) => `~${c.charCodeAt(0).toString(16)}`)}${SUFFIX}`;
}

function agentOf(file: string): string | undefined {
  if (!file.startsWith(PREFIX) || !file.endsWith(SUFFIX)) return undefined;
  return file
    .slice(PREFIX.length, -SUFFIX.length)
    .replace(/~([0-9a-f]+)/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

// One worker holds each database (the pool's handles are exclusive anyway), so no shared lock is needed.
const PRAGMAS =
  'PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY';
const LANDED = 'CREATE TABLE IF NOT EXISTS phone_landed (screen TEXT PRIMARY KEY) WITHOUT ROWID';

function writesOf(ops: Op[]): OpLine[] {
  const writes: OpLine[] = [];
  for (const op of ops) {
    if (op.op === 'table' || op.op === 'drop' || op.op === 'put') writes.push({ op, line: format([op]) });
  }
  return writes;
}

function call(agent: string, at: Moment): CallContext {
  return { owner: PHONE_OWNER, agent, now: at.now, timeZone: at.timeZone };
}

/**
 * Creates the request handler the worker runs. Requests run one after another (the store is
 * asynchronous and a landing's transaction spans its awaits), so they never interleave.
 *
 * @example
 * ```ts
 * const tables = createPhoneStore(pool);
 * await tables.handle({ kind: 'land', agent, screen, ops, at: { now: Date.now(), timeZone } });
 * ```
 */
export function createPhoneStore(pool: DatabasePool) {
  const open = new Map<string, AgentDb>();

  async function agentDb(agent: string): Promise<AgentDb> {
    let a = open.get(agent);
    if (!a) {
      // The database and its write-ahead log, plus one spare for a rollback journal.
      await pool.reserve(3);
      const db = pool.open(fileOf(agent));
      db.exec(PRAGMAS);
      const driver = createWasmSqlDriver(db);
      const store = createWasmSqliteStore(db, { driver });
      driver.exec(LANDED);
      a = { db, driver, store };
      open.set(agent, a);
    }
    return a;
  }

  function close(agent: string): void {
    open.get(agent)?.db.close();
    open.delete(agent);
  }

  // `boot` is the worker's own answer (how it started), not the store's.
  const handlers: {
    [K in StoreRequest['kind']]: (r: Extract<StoreRequest, { kind: K }>) => Promise<Replies[K]>;
  } = {
    async land({ agent, screen, ops, at }) {
      const { driver, store } = await agentDb(agent);
      // The landed mark and the writes commit together: a screen's writes land exactly once.
      return driver.batch(async () => {
        if (driver.get('SELECT 1 AS x FROM phone_landed WHERE screen = ?', [screen])) {
          return { already: true, wrote: 0, failed: [], pending: [] };
        }
        driver.run('INSERT INTO phone_landed (screen) VALUES (?)', [screen]);
        const writes = writesOf(ops);
        if (writes.length === 0) return { already: false, wrote: 0, failed: [], pending: [] };
        const answer = await runOps(store, { ...call(agent, at), ops: writes });
        return { already: false, wrote: answer.ok.length, failed: answer.failed, pending: answer.pending };
      });
    },
    async answer({ agent, queries, at }) {
      const { store } = await agentDb(agent);
      const out: Record<string, Answer> = {};
      for (const { id, props } of queries) {
        const answer = await runOps(store, {
          ...call(agent, at),
          ops: [{ op: { op: 'add', preset: 'query', id, props }, line: `query ${props.table}` }],
        });
        const result = answer.results[0];
        out[id] = result?.view
          ? { view: result.view }
          : { error: result?.error ?? answer.failed[0]?.error ?? `No table called ${props.table} yet.` };
      }
      return out;
    },
    async writeRow({ agent, table, key, values, at }) {
      const { store } = await agentDb(agent);
      const op = {
        op: 'put' as const,
        table,
        key,
        values: Object.fromEntries(
          Object.entries(values).map(([k, v]) => [k, { kind: 'bool' as const, value: v }]),
        ),
      };
      return {
        failed: (await runOps(store, { ...call(agent, at), ops: [{ op, line: format([op]) }] })).failed,
      };
    },
    async usage({ agent }) {
      if (!pool.files().includes(fileOf(agent))) return { bytes: 0, tables: 0, rows: 0 };
      const { driver } = await agentDb(agent);
      const pages = driver.rows('PRAGMA page_count')[0]![0] as number;
      const size = driver.rows('PRAGMA page_size')[0]![0] as number;
      const t = driver.get('SELECT count(*) AS tables, coalesce(sum(row_count), 0) AS rows FROM te_tables');
      return { bytes: pages * size, tables: Number(t?.tables ?? 0), rows: Number(t?.rows ?? 0) };
    },
    async agents() {
      return pool.files().flatMap((f) => agentOf(f) ?? []);
    },
    async remove({ agent }) {
      close(agent);
      return pool.unlink(fileOf(agent));
    },
    async removeAll() {
      for (const agent of [...open.keys()]) close(agent);
      for (const file of pool.files()) if (agentOf(file) !== undefined) pool.unlink(file);
      return undefined;
    },
    async migrate({ agent, snapshot, landed }) {
      const { driver, store } = await agentDb(agent);
      return driver.batch(async () => {
        let rows = 0;
        for (const t of snapshot?.tables ?? []) {
          const ref = { owner: PHONE_OWNER, holder: agent, name: t.name };
          if (await store.getTable(ref)) continue;
          await store.defineTable(ref, t.cols);
          for (const row of t.rows) {
            await store.insertRow(ref, row.key, row.values);
            rows++;
          }
        }
        for (const p of snapshot?.pending ?? []) {
          const { id: _id, ...rest } = p;
          await store.addPending({ ...rest, owner: PHONE_OWNER, holder: agent });
        }
        for (const screen of landed)
          driver.run('INSERT OR IGNORE INTO phone_landed (screen) VALUES (?)', [screen]);
        return { tables: snapshot?.tables.length ?? 0, rows };
      });
    },
    async count({ agent, table }) {
      if (!pool.files().includes(fileOf(agent))) return -1;
      const { store } = await agentDb(agent);
      return (await store.getTable({ owner: PHONE_OWNER, holder: agent, name: table }))?.rowCount ?? -1;
    },
  };

  // The request before this one, settled or not: the next starts only once it is done.
  let previous: Promise<unknown> = Promise.resolve();
  return {
    /** Runs one request after those before it; throws what the store throws (the worker maps it to a code). */
    handle<K extends StoreRequest['kind']>(request: Extract<StoreRequest, { kind: K }>): Promise<Replies[K]> {
      const handler = handlers[request.kind] as (r: typeof request) => Promise<Replies[K]>;
      if (!handler) throw new TypeError(`unknown tables request ${String(request.kind)}`);
      const result = previous.then(() => handler(request));
      previous = result.catch(() => undefined);
      return result;
    },
  };
}

/** The handler `createPhoneStore` returns. */
export type PhoneStore = ReturnType<typeof createPhoneStore>;
