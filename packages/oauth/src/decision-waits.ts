// Consent pages long-poll for a decision: a wake-up per request id, through the service's notifier when
// given (so a decision made on another instance wakes this one at once), with a periodic re-read as a net.
import type { Notifier } from '@screen-service/registry/kernel';

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

/** Waits per request id; with `notifier`, `changed` reaches the waiting pages of every instance sharing it. */
export function createDecisionWaits(notifier?: Pick<Notifier, 'publish' | 'subscribeAll'>): DecisionWaits {
  const waiting = new Map<string, Set<() => void>>();
  let count = 0;
  const wakeLocal = (requestId: string) => {
    for (const wake of [...(waiting.get(requestId) ?? [])]) wake();
  };
  // Subscribed only while pages wait, so an idle server holds no listener.
  let unsubscribe: (() => void) | undefined;
  const follow = () => {
    if (!notifier || unsubscribe || count === 0) return;
    unsubscribe = notifier.subscribeAll((e) => {
      if (e.type === 'decision') wakeLocal(e.requestId);
      else if (e.type === 'resync') for (const id of [...waiting.keys()]) wakeLocal(id);
    });
  };
  const unfollow = () => {
    if (count > 0 || !unsubscribe) return;
    unsubscribe();
    unsubscribe = undefined;
  };
  return {
    changed(requestId) {
      if (notifier) notifier.publish({ type: 'decision', userId: '', requestId });
      else wakeLocal(requestId);
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
          unfollow();
          if (set.size === 0) waiting.delete(requestId);
          clearTimeout(timer);
          clearInterval(recheck);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        set.add(done);
        follow();
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
