// This device's copy of the agents' tables behind the worker (ADR 0250): one SQLite database per agent, queried here.
import { format } from '@screen-service/screen-lines';
import { type CallContext, runOps, type TableStore } from '@screen-service/tables-engine';
import {
  createWasmSqlDriver,
  createWasmSqliteStore,
  loadTable,
  type SqlDriver,
  type WasmDatabase,
} from '@screen-service/tables-engine/browser-sqlite';
import type { Answer, Moment, Replies, Request } from './protocol.js';

/** The requests the store answers (`boot` is the worker's own). */
type StoreRequest = Exclude<Request, { kind: 'boot' }>;

/** Where the databases live: the OPFS pool in the worker, or memory (another tab holds the pool; tests). */
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

/** The person in this device's copy: every table there is the person's; the agent is the holder. */
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
// The digest the service gave for each table copied here; an older database's landed-screens list goes.
const COPY =
  'CREATE TABLE IF NOT EXISTS phone_copy (name TEXT PRIMARY KEY, digest TEXT NOT NULL) WITHOUT ROWID; DROP TABLE IF EXISTS phone_landed';

function call(agent: string, at: Moment): CallContext {
  return { owner: PHONE_OWNER, agent, now: at.now, timeZone: at.timeZone };
}

/**
 * Creates the request handler the worker runs. Requests run one after another (the store is
 * asynchronous and a copy's transaction spans its awaits), so they never interleave.
 *
 * @example
 * ```ts
 * const tables = createPhoneStore(pool);
 * await tables.handle({ kind: 'copy', agent, complete: true, tables: answer.tables });
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
      driver.exec(COPY);
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
    async digests({ agent }) {
      if (!pool.files().includes(fileOf(agent))) return {};
      const { driver } = await agentDb(agent);
      return Object.fromEntries(driver.rows('SELECT name, digest FROM phone_copy') as [string, string][]);
    },
    async copy({ agent, complete, tables, asked }) {
      const { driver, store } = await agentDb(agent);
      // One transaction: a device never shows half a copy.
      return driver.batch(async () => {
        const changed: string[] = [];
        const listed = new Set(tables.map((t) => t.name));
        for (const t of tables) {
          if (!t.rows) continue;
          await loadTable(store, driver, { owner: PHONE_OWNER, holder: agent, name: t.name }, t.cols, t.rows);
          driver.run('INSERT OR REPLACE INTO phone_copy (name, digest) VALUES (?, ?)', [t.name, t.digest]);
          changed.push(t.name);
        }
        const gone = (name: string) => !listed.has(name) && (complete || (asked ?? []).includes(name));
        for (const info of await store.listTables(PHONE_OWNER, agent)) {
          if (!gone(info.name)) continue;
          await store.dropTable(info);
          changed.push(info.name);
        }
        for (const [name] of driver.rows('SELECT name FROM phone_copy') as [string][]) {
          if (gone(name)) driver.run('DELETE FROM phone_copy WHERE name = ?', [name]);
        }
        return { changed };
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
    // The person's tick shows at once here; the service writes it too and the next copy confirms it.
    async writeRow({ agent, table, key, values, at }) {
      const { store, driver } = await agentDb(agent);
      driver.run('UPDATE phone_copy SET digest = ? WHERE name = ?', ['edited-here', table]);
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
