// Rows read by id in this turn of the event loop, kept for the rest of the turn (ADR 0302).
import { setImmediate } from 'node:timers';
import type { SqliteDb } from './rows.js';

/** The tables whose rows are kept for a turn. */
export type TurnTable = 'agents' | 'screens';

/**
 * A burst of requests for one thread (a person's taps, a host's calls) reads the same agent and the same screen
 * once per request; this keeps what one request read for the requests later in the same turn.
 *
 * Exact for this connection: a temporary trigger on the table forgets every kept row of it as soon as any
 * statement of this connection updates or deletes a row there (a repository's write, a cascade, a transaction
 * body, raw SQL), before that statement returns. Another connection's commit (the CLI, a second process) is seen
 * from the next turn: the kept rows are forgotten at the turn's check phase, so nothing read here outlives the
 * turn it was read in. Only rows read outside a transaction are kept and only such reads use them: a read inside
 * a transaction sees that transaction's own writes, which may still roll back. Nothing absent is kept (an insert
 * needs no trigger). A kept value is frozen: every reader of the turn gets the same object.
 */
export interface TurnRows<T> {
  /** The row's record: kept from earlier in this turn, or read (and kept) by `read`; null when there is none. */
  get(id: string, read: (id: string) => T | null): T | null;
}

interface Keeper {
  kept: Record<TurnTable, Map<string, unknown>>;
  clearing: boolean;
}

const KEEPERS = new WeakMap<SqliteDb, Keeper>();
const FORGET_FN = 'svc_turn_rows_forget';

function keeperOf(db: SqliteDb): Keeper {
  const known = KEEPERS.get(db);
  if (known) return known;
  const keeper: Keeper = { kept: { agents: new Map(), screens: new Map() }, clearing: false };
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
 * The rows of `table` kept for this turn on `db` (one keep per connection and table).
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
      const hit = kept.get(id);
      if (hit !== undefined) return hit;
      const value = read(id);
      if (value === null) return null;
      deepFreeze(value);
      kept.set(id, value);
      if (!keeper.clearing) {
        keeper.clearing = true;
        // setImmediate from node:timers: a test's fake global timers must not keep another process's change unseen.
        setImmediate(() => {
          keeper.clearing = false;
          keeper.kept.agents.clear();
          keeper.kept.screens.clear();
        });
      }
      return value;
    },
  };
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
