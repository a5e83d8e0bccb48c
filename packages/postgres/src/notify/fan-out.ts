// Local delivery of thread events to this instance's listeners (the same contract as service-core's
// createNotifier), plus `resyncAll`, which only a shared notifier needs.
import type { ThreadEvent, ThreadListener } from '@screen-service/service-core';

/** This instance's listeners, keyed by user. */
export interface FanOut {
  deliver(event: ThreadEvent): void;
  subscribe(userId: string, listener: ThreadListener): () => void;
  subscribeAll(listener: ThreadListener): () => void;
  listenerCount(userId: string): number;
  /** Tells every listener to re-read: each user's with its own id, `subscribeAll` ones with `*`. */
  resyncAll(): void;
}

function callEach(listeners: Iterable<ThreadListener>, event: ThreadEvent) {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch {
      // One broken subscriber (a closed stream) must not starve the rest.
    }
  }
}

/** @example `const local = createFanOut(); local.subscribe(userId, onEvent); local.deliver(event);` */
export function createFanOut(): FanOut {
  const byUser = new Map<string, Set<ThreadListener>>();
  const everyone = new Set<ThreadListener>();
  return {
    deliver(event) {
      const set = byUser.get(event.userId);
      if (set) callEach(set, event);
      if (everyone.size > 0) callEach(everyone, event);
    },
    subscribe(userId, listener) {
      let set = byUser.get(userId);
      if (!set) {
        set = new Set();
        byUser.set(userId, set);
      }
      set.add(listener);
      return () => {
        const s = byUser.get(userId);
        if (!s) return;
        s.delete(listener);
        if (s.size === 0) byUser.delete(userId);
      };
    },
    subscribeAll(listener) {
      everyone.add(listener);
      return () => {
        everyone.delete(listener);
      };
    },
    listenerCount(userId) {
      return byUser.get(userId)?.size ?? 0;
    },
    resyncAll() {
      for (const [userId, set] of [...byUser]) callEach(set, { type: 'resync', userId });
      callEach(everyone, { type: 'resync', userId: '*' });
    },
  };
}
