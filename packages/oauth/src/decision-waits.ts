// Consent pages long-poll for a decision: an in-process wake-up per request id, with a periodic re-read so
// a decision written by another process is still seen within a few seconds.

export interface DecisionWaits {
  /** Wakes every page waiting on this request. */
  changed(requestId: string): void;
  /**
   * Resolves when the request changes, `ms` passes, `recheckMs` passes and `stillPending()` says no, or
   * `signal` aborts; whichever comes first.
   */
  wait(
    requestId: string,
    ms: number,
    options: { signal?: AbortSignal; stillPending: () => Promise<boolean>; recheckMs?: number },
  ): Promise<void>;
  /** Pages waiting right now (tests prove nothing leaks). */
  size(): number;
}

export function createDecisionWaits(): DecisionWaits {
  const waiting = new Map<string, Set<() => void>>();
  let count = 0;
  return {
    changed(requestId) {
      for (const wake of [...(waiting.get(requestId) ?? [])]) wake();
    },
    wait(requestId, ms, { signal, stillPending, recheckMs = 2000 }) {
      return new Promise<void>((resolve) => {
        if (signal?.aborted || ms <= 0) return resolve();
        const set = waiting.get(requestId) ?? new Set();
        waiting.set(requestId, set);
        count++;
        let recheck: ReturnType<typeof setInterval> | undefined;
        const done = () => {
          if (!set.delete(done)) return;
          count--;
          if (set.size === 0) waiting.delete(requestId);
          clearTimeout(timer);
          clearInterval(recheck);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        set.add(done);
        const timer = setTimeout(done, ms);
        recheck = setInterval(() => {
          stillPending().then(
            (pending) => {
              if (!pending) done();
            },
            () => done(),
          );
        }, recheckMs);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    size() {
      return count;
    },
  };
}
