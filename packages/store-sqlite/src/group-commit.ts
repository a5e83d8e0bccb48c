// Group commit: thread writes and transaction bodies asked for in the same event-loop turn share one
// transaction (ADR 0205, 0212, 0241); while requests keep coming it waits a few turns for them (ADR 0297).
import { AsyncLocalStorage } from 'node:async_hooks';
import { clearImmediate, setImmediate } from 'node:timers';
import { StoreTransactionError } from '@screen-service/registry/model';
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
  /**
   * Queues a transaction body (`Store.transaction`): it runs inside the next flush's transaction, after the
   * writes and bodies queued before it, and resolves with its value once that transaction committed. The
   * body awaits only statements on this connection (calls that answer in microtasks), so the flush ends in
   * the turn it started; a body still pending at the next turn is rolled back and refused (`TX_STALLED`).
   * Like a write, a body that throws is rolled back alone, and a body may run twice.
   */
  runBody<T>(body: () => Promise<T>): Promise<T>;
  /**
   * The check before every plain call of the store: nothing while no flush runs bodies; while one does, a
   * Promise that settles when it committed (a call from another request waits: it never sees, or lands in,
   * uncommitted work); a call from inside a body throws `OUTSIDE_TX` (it would wait for its own commit).
   */
  check(name: string): Promise<void> | undefined;
  /** Throws `TX_ENDED` unless the caller runs inside a body of the flush now running (its `tx` is live). */
  assertInBody(name: string): void;
  /**
   * What the writes keep about the database from one write to the next (ADR 0290: a thread's newest receipt
   * link), or null outside a write of a flush without bodies. Exact: it is emptied before a flush that finds
   * the database changed otherwise than by such flushes (a write outside them on this connection moved
   * `total_changes()`, another connection's commit moved `data_version`), and after any rollback. A write that
   * changes a fact kept here must update it; only writes of this group commit may keep one.
   */
  memo(): Map<string, unknown> | null;
  /**
   * What the writes of one pass of a flush without bodies gather under `key` (ADR 0294: the flush's receipt
   * leaves), made by `start` at the first write that asks; its `end` runs as the pass's last statements before
   * COMMIT, after every write. A pass that rolls back takes it along; the next pass starts afresh. Null where
   * {@link memo} is null: the write then does alone what `end` would do.
   */
  batch<S extends FlushBatch>(key: string, start: () => S): S | null;
}

/** A flush's gathered state: `end` runs once, as the pass's last statements before COMMIT. */
export interface FlushBatch {
  end(): void;
}

/** How a repository runs its writes: through the group commit, or at once inside a transaction body. */
export type WriteRunner = Pick<GroupCommit, 'run' | 'memo' | 'batch'>;

/** The writes of a transaction body's `tx`: run at once, in the body's open transaction (they keep no memo). */
export const INLINE_WRITES: WriteRunner = {
  run<T>(write: () => T): Promise<T> {
    try {
      return Promise.resolve(write());
    } catch (error) {
      return Promise.reject(error);
    }
  },
  memo: () => null,
  batch: () => null,
};

const SHARED = new WeakMap<SqliteDb, GroupCommit>();

/**
 * How many turns of the event loop a flush waits at most while each one brings more writes (ADR 0297). Under
 * the tap benchmark's sixteen callers one wait grew batches from 9 to 14 writes and took a tenth off each
 * write's CPU; three reached it under every load tried, and more gained nothing.
 */
export const WAIT_TURNS = 3;
/** A batch this large already shares its commit widely: it is flushed without waiting for more. */
export const WAIT_BELOW = 256;

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
  /** A synchronous write, or else `body`. */
  write?: () => unknown;
  body?: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Outcome {
  ok: boolean;
  value: unknown;
}

/** One flush that runs bodies: open from BEGIN to COMMIT, across the bodies' microtasks. */
interface BodyFlush {
  /** Settles when the flush ended (committed or rolled back): plain calls that arrived meanwhile go on. */
  done: Promise<void>;
  end: () => void;
  /** Rejects when the watchdog found the flush still open a turn later. */
  stalled: Promise<never>;
  stall: () => void;
  /** The item whose body runs now. */
  current: Queued | null;
}

/** The flush a body runs in: a plain store call made from it is a misuse, not another request's. */
const bodies = new AsyncLocalStorage<BodyFlush>();

class Stalled extends Error {}

function newBodyFlush(): BodyFlush {
  let end!: () => void;
  let stall!: () => void;
  const done = new Promise<void>((resolve) => {
    end = resolve;
  });
  const stalled = new Promise<never>((_, reject) => {
    stall = () => reject(new Stalled());
  });
  stalled.catch(() => {});
  return { done, end, stalled, stall, current: null };
}

/**
 * A commit writes every page it touched to the write-ahead log: one per table and index a row lands in, about
 * a dozen for a screen and its push intent, most of the cost of a write. Writes queued while the event loop
 * serves a burst of requests are flushed together after that turn's I/O callbacks (setImmediate), so they
 * share those pages and one commit; while each turn brings more, the flush waits up to {@link WAIT_TURNS}
 * turns for them (ADR 0297). The batch first runs with no savepoint per write (ADR 0212); only when
 * a write throws is it rolled back and run again with a savepoint per write, so that write fails alone.
 * Inside a transaction already open on `db`, a write runs at once in it, in its own savepoint.
 *
 * Transaction bodies (ADR 0241) join the same batches: a batch with bodies runs its items in order between
 * BEGIN and COMMIT, awaiting each body; every statement of a body runs on this connection and answers in a
 * microtask, so the whole flush still ends within its own turn of the event loop.
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
  /** The flush running bodies now, or null. */
  let open: BodyFlush | null = null;
  // Shared with the table store's batches (tables-engine): a flush waits for an open batch to commit.
  const lock = storeLockOf(db);
  const memo = createMemo(db);
  // First pass: the writes straight in one transaction, no savepoint each (a savepoint per write cost
  // about a tenth of a batch's time); any throw escapes and rolls the whole transaction back. IMMEDIATE: the
  // flush writes anyway, and holding the write lock from BEGIN is what lets the memo check come first.
  const runPlain = db.transaction((batch: Queued[]) => {
    memo.enter();
    const out = batch.map((item) => ({ ok: true, value: item.write!() }));
    memo.seal();
    return out;
  }).immediate;
  const runIsolated = db.transaction((batch: Queued[]) => {
    memo.enter();
    const out = batch.map((item) => {
      try {
        // A transaction function called inside a transaction runs as a savepoint.
        return { ok: true, value: db.transaction(item.write!)() };
      } catch (error) {
        // Its savepoint was rolled back: whatever it kept may name rows that are gone.
        memo.forget();
        return { ok: false, value: error };
      }
    });
    memo.seal();
    return out;
  }).immediate;
  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT svc_body');
  const release = db.prepare('RELEASE svc_body');
  const rollbackTo = db.prepare('ROLLBACK TO svc_body');

  const settle = (batch: Queued[], outcomes: Outcome[]) => {
    batch.forEach((item, i) => {
      const o = outcomes[i]!;
      if (o.ok) item.resolve(o.value);
      else item.reject(o.value);
    });
  };

  const flushWrites = (batch: Queued[]) => {
    let outcomes: Outcome[];
    try {
      outcomes = runPlain(batch);
    } catch {
      // A write threw (its transaction is rolled back, nothing of the batch is stored): run the batch
      // again with a savepoint per write, so only the failing write fails. (The memo is emptied when the
      // next pass enters: only a commit marks it good.)
      try {
        outcomes = runIsolated(batch);
      } catch (error) {
        for (const item of batch) item.reject(error);
        return;
      }
    } finally {
      memo.leave();
    }
    memo.committed();
    settle(batch, outcomes);
  };

  /** One pass over a batch with bodies; null when an item threw on the plain pass (run it isolated). */
  async function attempt(batch: Queued[], f: BodyFlush, isolated: boolean): Promise<Outcome[] | null> {
    begin.run();
    const out: Outcome[] = [];
    try {
      for (const item of batch) {
        if (isolated) savepoint.run();
        try {
          f.current = item;
          const value = item.write ? item.write() : await Promise.race([item.body!(), f.stalled]);
          if (isolated) release.run();
          out.push({ ok: true, value });
        } catch (error) {
          if (!isolated || error instanceof Stalled) throw error;
          rollbackTo.run();
          release.run();
          out.push({ ok: false, value: error });
        }
      }
      commit.run();
      return out;
    } catch (error) {
      if (db.inTransaction) rollback.run();
      if (error instanceof Stalled || isolated) throw error;
      return null;
    }
  }

  /** A body that waited on something else: refused; the rest of its batch goes to the next flush. */
  function stalled(batch: Queued[], stuck: Queued | null) {
    stuck?.reject(
      new StoreTransactionError(
        'TX_STALLED',
        'A transaction body awaited something that is not its tx (a store call outside the transaction, a timer, network I/O), so its transaction was rolled back: on SQLite a body may await only its tx.',
      ),
    );
    queue = [...batch.filter((item) => item !== stuck), ...queue];
    schedule();
  }

  async function flushBodies(batch: Queued[]): Promise<void> {
    const f = newBodyFlush();
    open = f;
    // A body that awaits only its tx ends in this turn; the check phase of the next turn means it did not.
    const watchdog = setImmediate(f.stall);
    try {
      await bodies.run(f, async () => {
        let outcomes: Outcome[];
        try {
          // The isolated pass never answers null: it settles each item alone, or throws for a failed commit.
          outcomes = (await attempt(batch, f, false)) ?? (await attempt(batch, f, true))!;
        } catch (error) {
          if (error instanceof Stalled) stalled(batch, f.current);
          // A failed commit: no item of the batch is stored.
          else for (const item of batch) item.reject(error);
          return;
        }
        settle(batch, outcomes);
      });
    } finally {
      clearImmediate(watchdog);
      open = null;
      f.end();
    }
  }

  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.some((item) => item.body)) return flushBodies(batch);
    flushWrites(batch);
  };

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    // While requests keep coming, the flush waits for them (ADR 0297): a turn that queued more writes than
    // the one before defers it by one more turn, at most WAIT_TURNS turns and while the batch is under
    // WAIT_BELOW. A lone write (nothing came after it) is flushed at the first turn, as before.
    let seen = queue.length;
    let waited = 0;
    const tick = () => {
      if (waited < WAIT_TURNS && queue.length > seen && queue.length < WAIT_BELOW) {
        waited++;
        seen = queue.length;
        setImmediate(tick);
        return;
      }
      void lock.run(flush);
    };
    // setImmediate from node:timers: a test's fake global timers must not hold writes back.
    setImmediate(tick);
  }

  const inBody = () => open !== null && bodies.getStore() === open;

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
        schedule();
      });
    },
    runBody<T>(body: () => Promise<T>): Promise<T> {
      if (inBody()) {
        return Promise.reject(
          new StoreTransactionError(
            'OUTSIDE_TX',
            'A transaction was opened inside a transaction body: do its work with the body’s tx instead.',
          ),
        );
      }
      return new Promise<T>((resolve, reject) => {
        queue.push({ body, resolve: resolve as (v: unknown) => void, reject });
        schedule();
      });
    },
    check(name) {
      if (open === null) return undefined;
      if (bodies.getStore() === open) {
        throw new StoreTransactionError(
          'OUTSIDE_TX',
          `store.${name} was called inside a transaction body: use tx.${name}, or call it after the transaction.`,
        );
      }
      return open.done;
    },
    assertInBody(name) {
      if (!inBody()) {
        throw new StoreTransactionError(
          'TX_ENDED',
          `tx.${name} was called after its transaction ended: use a tx only inside its body.`,
        );
      }
    },
    memo: () => memo.open(),
    batch<S extends FlushBatch>(key: string, start: () => S): S | null {
      return memo.batch(key, start);
    },
  };
}

/**
 * The memo of {@link GroupCommit.memo} and its guard. `where()` reads this connection's `total_changes()`
 * (every row it ever wrote, rolled back or not) and `data_version` (moves when another connection commits;
 * never for this one's own commits): while both stay where the last flush without bodies left them, nothing
 * but those flushes changed the database.
 */
function createMemo(db: SqliteDb) {
  const kept = new Map<string, unknown>();
  const probe = db.prepare(
    'SELECT total_changes() AS t, (SELECT data_version FROM pragma_data_version) AS v',
  );
  const where = () => {
    const r = probe.get() as { t: number; v: number };
    return `${r.t}:${r.v}`;
  };
  /** Where the last flush without bodies left the database; null after a failure. */
  let mark: string | null = null;
  /** Where this flush leaves it, read before its COMMIT (no other connection can commit in between). */
  let sealed: string | null = null;
  let live = false;
  /** What this pass's writes gather (ADR 0294), ended just before its seal. */
  const batches = new Map<string, FlushBatch>();
  return {
    /**
     * At the start of a flush's transaction (write lock held, so no commit of another can come after it).
     * Until the flush commits the mark is unset: a pass that rolls back leaves the next one an empty memo.
     */
    enter() {
      // Bounded: a fact not kept is read again, so forgetting is always safe.
      if (where() !== mark || kept.size > 10_000) kept.clear();
      mark = null;
      sealed = null;
      batches.clear();
      live = true;
    },
    /**
     * The flush's last statements before COMMIT: the gathered batches end, then the mark is read. Read after the COMMIT instead, a commit another process made
     * in between would be taken as this flush's own, and the memo trusted past it.
     */
    seal() {
      // Cleared first: a batch whose end throws rolls the pass back, and the next pass gathers anew.
      const ending = [...batches.values()];
      batches.clear();
      for (const b of ending) b.end();
      sealed = where();
    },
    leave() {
      live = false;
      batches.clear();
    },
    /** After the flush committed: what it kept holds as of its seal. */
    committed() {
      mark = sealed;
    },
    forget() {
      kept.clear();
      mark = null;
    },
    open: () => (live ? kept : null),
    batch<S extends FlushBatch>(key: string, start: () => S): S | null {
      if (!live) return null;
      let b = batches.get(key) as S | undefined;
      if (b === undefined) {
        b = start();
        batches.set(key, b);
      }
      return b;
    },
  };
}
