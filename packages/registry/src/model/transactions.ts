// What every store shares about `Store.transaction` (ADR 0241): the error of a misused transaction and the
// wrapper that puts a check before each repository call (the stores decide what the check does).

/** Why a store refused a call: a transaction used wrongly (a bug in the caller, never bad input). */
export type StoreTransactionErrorCode =
  /** A transaction body called the store itself (not its `tx`), or opened a transaction inside one. */
  | 'OUTSIDE_TX'
  /** A `tx` was used after its transaction ended (kept past the body's promise). */
  | 'TX_ENDED'
  /** A SQLite transaction body awaited something that is not its `tx` (a timer, I/O, another store call). */
  | 'TX_STALLED';

/**
 * A programming error in the use of `Store.transaction`: thrown at once instead of letting the call land in
 * the wrong transaction or wait for a transaction that waits for it. Adapters answer it as an internal error.
 *
 * @example
 * ```ts
 * await store.transaction(async (tx) => {
 *   await store.users.findById(id); // throws StoreTransactionError OUTSIDE_TX: use tx.users
 * });
 * ```
 */
export class StoreTransactionError extends Error {
  readonly code: StoreTransactionErrorCode;
  constructor(code: StoreTransactionErrorCode, message: string) {
    super(message);
    this.name = 'StoreTransactionError';
    this.code = code;
  }
}

/**
 * Runs before a repository call: returns nothing to go on at once, a Promise to go on once it settles, or
 * throws to refuse the call. `name` is `repository.method`, for the error's message.
 */
export type RepositoryCheck = (name: string) => Promise<void> | undefined;

/**
 * A copy of `repositories` (an object of repository objects) whose every method runs `check` first. Values
 * that are not functions (the relay's table store) are kept as they are.
 *
 * @example
 * ```ts
 * const guarded = guardRepositories(repos, (name) => (open ? waitForCommit() : undefined));
 * ```
 */
export function guardRepositories<R extends object>(repositories: R, check: RepositoryCheck): R {
  const out: Record<string, unknown> = {};
  for (const [repo, methods] of Object.entries(repositories)) {
    const wrapped: Record<string, unknown> = {};
    for (const [method, fn] of Object.entries(methods as Record<string, unknown>)) {
      if (typeof fn !== 'function') {
        wrapped[method] = fn;
        continue;
      }
      const name = `${repo}.${method}`;
      const call = fn as (...args: unknown[]) => unknown;
      wrapped[method] = (...args: unknown[]) => {
        let wait: Promise<void> | undefined;
        try {
          wait = check(name);
        } catch (error) {
          // Repository methods answer with Promises: a refusal rejects, as their own errors do.
          return Promise.reject(error);
        }
        return wait === undefined ? call(...args) : wait.then(() => call(...args));
      };
    }
    out[repo] = wrapped;
  }
  return out as R;
}
