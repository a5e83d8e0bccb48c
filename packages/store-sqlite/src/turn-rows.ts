// Rows read by id, kept while nothing changed them (ADRs 0302, 0304): this connection's own writes forget them at
// once (temporary triggers), another connection's commit is seen by one `data_version` look per turn.
import { setImmediate } from 'node:timers';
import type { SqliteDb } from './rows.js';

/** The tables whose rows are kept: agents, screens, and sign-in families found live (`app_sessions`). */
export type TurnTable = 'agents' | 'screens' | 'app_sessions';

/**
 * What a repository keeps of `table` on one connection.
 *
 * - Exact for this connection: a temporary trigger on the table forgets all it keeps as soon as any statement of
 *   this connection updates or deletes a row there (a repository's write, a cascade, a transaction body, raw SQL),
 *   before that statement returns. An insert needs no trigger: nothing absent is kept.
 * - Another connection's commit (the CLI, a second process) is seen from the next turn of the event loop: the
 *   first use in a turn reads `PRAGMA data_version`, and everything kept is forgotten when it moved.
 * - Inside a transaction nothing is used or kept: a read there sees the transaction's own writes, which may still
 *   roll back.
 */
export interface TurnKeep<T> {
  /** What is kept for `id`; undefined when nothing is (or inside a transaction). */
  get(id: string): T | undefined;
  /** Keeps `value` for `id` (nothing, inside a transaction). */
  set(id: string, value: T): void;
}

/** Rows kept by id, frozen: every reader gets the same object. */
export interface TurnRows<T> {
  /** The row's record: kept, or read (and kept) by `read`; null when there is none. */
  get(id: string, read: (id: string) => T | null): T | null;
}

/** Kept entries per table at most: a larger keep starts again empty (a forgotten row is only read again). */
export const MAX_KEPT = 4096;

interface Keeper {
  kept: Record<TurnTable, Map<string, unknown>>;
  /** `data_version` at the last look; null before the first. */
  version: number | null;
  /** Whether this turn looked already. */
  looked: boolean;
  look(): void;
}

const KEEPERS = new WeakMap<SqliteDb, Keeper>();
const FORGET_FN = 'svc_turn_rows_forget';

function keeperOf(db: SqliteDb): Keeper {
  const known = KEEPERS.get(db);
  if (known) return known;
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const keeper: Keeper = {
    kept: { agents: new Map(), screens: new Map(), app_sessions: new Map() },
    version: null,
    looked: false,
    look() {
      if (keeper.looked) return;
      keeper.looked = true;
      // setImmediate from node:timers: a test's fake global timers must not keep another process's change unseen.
      setImmediate(() => {
        keeper.looked = false;
      });
      const version = dataVersion.get() as number;
      if (version === keeper.version) return;
      keeper.version = version;
      for (const map of Object.values(keeper.kept)) map.clear();
    },
  };
  db.function(FORGET_FN, { deterministic: false, directOnly: true }, (table: unknown) => {
    keeper.kept[table as TurnTable]?.clear();
    return null;
  });
  for (const table of Object.keys(keeper.kept) as TurnTable[]) {
    for (const event of ['UPDATE', 'DELETE']) {
      db.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS svc_turn_rows_${table}_${event.toLowerCase()}
           AFTER ${event} ON main.${table} BEGIN SELECT ${FORGET_FN}('${table}'); END`,
      );
    }
  }
  KEEPERS.set(db, keeper);
  return keeper;
}

/**
 * What `table` keeps on `db` (one keep per connection and table).
 *
 * @example
 * ```ts
 * const families = turnKeepOf<number>(db, 'app_sessions');
 * if ((families.get(familyId) ?? 0) > now) return true;
 * ```
 */
export function turnKeepOf<T>(db: SqliteDb, table: TurnTable): TurnKeep<T> {
  const keeper = keeperOf(db);
  const kept = keeper.kept[table] as Map<string, T>;
  return {
    get(id) {
      if (db.inTransaction) return undefined;
      keeper.look();
      return kept.get(id);
    },
    set(id, value) {
      if (db.inTransaction) return;
      keeper.look();
      keepIn(kept, id, value);
    },
  };
}

/**
 * Rows of `table` read by id through the keep: a burst of one thread's requests, and its next ones while nothing
 * changed, read its agent and its screen once.
 *
 * @example
 * ```ts
 * const agents = turnRowsOf<AgentRecord>(db, 'agents');
 * const agent = agents.get(id, (id) => readAgent(id));
 * ```
 */
export function turnRowsOf<T>(db: SqliteDb, table: TurnTable): TurnRows<T> {
  const keeper = keeperOf(db);
  const kept = keeper.kept[table] as Map<string, T>;
  return {
    get(id, read) {
      if (db.inTransaction) return read(id);
      keeper.look();
      const hit = kept.get(id);
      if (hit !== undefined) return hit;
      const value = read(id);
      if (value === null) return null;
      deepFreeze(value);
      keepIn(kept, id, value);
      return value;
    },
  };
}

/** Keeps `value` under `id`; a keep at {@link MAX_KEPT} entries starts again empty (forgetting only costs a read). */
function keepIn<T>(kept: Map<string, T>, id: string, value: T): void {
  if (kept.size >= MAX_KEPT) kept.clear();
  kept.set(id, value);
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
