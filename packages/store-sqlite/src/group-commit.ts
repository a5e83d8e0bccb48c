// Group commit: thread writes asked for in the same event-loop turn share one transaction (ADR 0205).
import { setImmediate } from 'node:timers';
import { storeLockOf } from '@screen-service/tables-engine';
import type { SqliteDb } from './rows.js';

/** Runs writes in shared transactions; each caller's promise settles only after its own commit. */
export interface GroupCommit {
  /**
   * Queues `write` (synchronous statements) for the next flush and resolves with its value once the
   * transaction holding it committed. A write that throws is rolled back alone and rejects; a failed
   * commit rejects every write of the batch (none of them is stored).
   *
   * `write` must only run statements on this database and return a value: no side effect outside the
   * transaction (no events, no counters, no I/O). When a write of the batch throws, the batch is rolled
   * back and every write of it runs a second time, each in its own savepoint.
   */
  run<T>(write: () => T): Promise<T>;
}

const SHARED = new WeakMap<SqliteDb, GroupCommit>();

/**
 * The group commit every repository of `db` shares, so a turn's message writes and the push sender's
 * settles go out in one commit.
 *
 * @example
 * ```ts
 * await groupCommitOf(db).run(() => settle.run(json));
 * ```
 */
export function groupCommitOf(db: SqliteDb): GroupCommit {
  let g = SHARED.get(db);
  if (!g) {
    g = createGroupCommit(db);
    SHARED.set(db, g);
  }
  return g;
}

interface Queued {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * A commit writes every page it touched to the write-ahead log: one per table and index a row lands in, about
 * a dozen for a screen and its push intent, most of the cost of a write. Writes queued while the event loop
 * serves a burst of requests are flushed together after that turn's I/O callbacks (setImmediate), so they
 * share those pages and one commit. The batch first runs with no savepoint per write (ADR 0212); only when
 * a write throws is it rolled back and run again with a savepoint per write, so that write fails alone.
 * Inside a transaction already open on `db`, a write runs at once in it, in its own savepoint.
 *
 * @example
 * ```ts
 * const commits = createGroupCommit(db);
 * const message = await commits.run(() => appendText(m, push));
 * ```
 */
export function createGroupCommit(db: SqliteDb): GroupCommit {
  let queue: Queued[] = [];
  let scheduled = false;
  // Shared with the table store's batches (tables-engine): a flush waits for an open batch to commit.
  const lock = storeLockOf(db);
  // setImmediate from node:timers: a test's fake global timers must not hold writes back.
  // First pass: the writes straight in one transaction, no savepoint each (a savepoint per write cost
  // about a tenth of a batch's time); any throw escapes and rolls the whole transaction back.
  const runPlain = db.transaction((batch: Queued[]) =>
    batch.map((item) => ({ ok: true, value: item.write() })),
  );
  const runIsolated = db.transaction((batch: Queued[]) =>
    batch.map((item) => {
      try {
        // A transaction function called inside a transaction runs as a savepoint.
        return { ok: true, value: db.transaction(item.write)() };
      } catch (error) {
        return { ok: false, value: error };
      }
    }),
  );
  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    let outcomes: { ok: boolean; value: unknown }[];
    try {
      outcomes = runPlain(batch);
    } catch {
      // A write threw (its transaction is rolled back, nothing of the batch is stored): run the batch
      // again with a savepoint per write, so only the failing write fails.
      try {
        outcomes = runIsolated(batch);
      } catch (error) {
        for (const item of batch) item.reject(error);
        return;
      }
    }
    batch.forEach((item, i) => {
      const o = outcomes[i]!;
      if (o.ok) item.resolve(o.value);
      else item.reject(o.value);
    });
  };
  return {
    run<T>(write: () => T): Promise<T> {
      // An open table batch (it holds the connection's lock across awaits) is not the caller's transaction.
      if (db.inTransaction && !lock.busy) {
        try {
          // Its own savepoint: a write that throws leaves nothing behind in the open transaction.
          return Promise.resolve(db.transaction(write)());
        } catch (error) {
          return Promise.reject(error);
        }
      }
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (v: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void lock.run(flush));
        }
      });
    },
  };
}
