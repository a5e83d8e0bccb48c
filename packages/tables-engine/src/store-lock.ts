// One turn-taking lock per database connection: asynchronous table batches and other transactions take it in turn.

/** A first-come, first-served lock around one connection's transactions. */
export interface StoreLock {
  /** True while a holder runs (its promise has not settled yet). */
  readonly busy: boolean;
  /**
   * Runs `fn` once every earlier holder is done and releases the lock when `fn` returns (or its promise
   * settles). When the lock is free, `fn` starts at once, in the same turn, before `run` returns.
   */
  run<T>(fn: () => T | Promise<T>): Promise<T>;
}

const LOCKS = new WeakMap<object, StoreLock>();

/**
 * The lock of one connection (a better-sqlite3 handle, or any object naming a connection): the SQLite
 * table store's batches and the service's group commit share it, so a batch that awaits between its
 * statements never has another transaction's statements land inside it.
 *
 * @example
 * ```ts
 * await storeLockOf(db).run(() => db.transaction(writeAll)());
 * ```
 */
export function storeLockOf(connection: object): StoreLock {
  let lock = LOCKS.get(connection);
  if (!lock) {
    lock = createStoreLock();
    LOCKS.set(connection, lock);
  }
  return lock;
}

/**
 * A lock of its own, not tied to a connection.
 *
 * @example
 * ```ts
 * const lock = createStoreLock();
 * await lock.run(async () => { await first(); await second(); });
 * ```
 */
export function createStoreLock(): StoreLock {
  let busy = false;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy = false;
  };
  const start = <T>(fn: () => T | Promise<T>): Promise<T> => {
    let out: T | Promise<T>;
    try {
      out = fn();
    } catch (error) {
      release();
      return Promise.reject(error);
    }
    if (out instanceof Promise) return out.finally(release);
    release();
    return Promise.resolve(out);
  };
  return {
    get busy() {
      return busy;
    },
    run(fn) {
      if (!busy) {
        busy = true;
        return start(fn);
      }
      return new Promise((resolve, reject) => waiting.push(() => void start(fn).then(resolve, reject)));
    },
  };
}
