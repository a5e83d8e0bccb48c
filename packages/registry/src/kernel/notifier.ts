// In-process fan-out of thread changes: wakes waiting `answers` calls and feeds the person's live stream.
// A multi-process deployment swaps this for LISTEN/NOTIFY or similar behind the same interface.
import type { MessageRecord } from '../model/records.js';

/** Something changed in one (agent, user) thread. */
export type ThreadEvent =
  | { type: 'message'; userId: string; agentId: string; message: MessageRecord }
  | { type: 'agents'; userId: string }
  | { type: 'read'; userId: string; agentId: string; seq: number }
  /** A host started (`until` = when the working row lapses by itself) or finished (`null`) a turn. */
  | { type: 'working'; userId: string; agentId: string; until: number | null }
  /**
   * The person's relay tables changed (rows written, a table given, taken away or deleted); `agentId` and
   * `tables` name the holder and tables when one agent's tables changed, so a device refreshes only those.
   */
  | { type: 'tables'; userId: string; agentId?: string; tables?: string[] }
  /** An OAuth sign-in request was decided, cancelled or finished (`userId`: the person, '' when unknown). */
  | { type: 'decision'; userId: string; requestId: string }
  /**
   * Events may have been missed (a shared notifier lost its link to the other instances): listeners re-read
   * what they wait for. A user's listeners get their own `userId`; `subscribeAll` listeners get `*`.
   */
  | { type: 'resync'; userId: string };

export type ThreadListener = (event: ThreadEvent) => void;

/**
 * Publish/subscribe keyed by user. Listeners run synchronously in publish order; a throwing listener
 * does not stop the others.
 *
 * @example
 * ```ts
 * const notifier = createNotifier();
 * const stop = notifier.subscribe(userId, (e) => console.log(e.type));
 * notifier.publish({ type: 'agents', userId });
 * stop();
 * ```
 */
export interface Notifier {
  publish(event: ThreadEvent): void;
  subscribe(userId: string, listener: ThreadListener): () => void;
  /** Listens to every user's events (an in-process worker such as the native-agent runtime). */
  subscribeAll(listener: ThreadListener): () => void;
  /** Live listeners for a user (tests use it to prove nothing leaks after a call ends). */
  listenerCount(userId: string): number;
}

/** The in-process notifier; `resyncAll` serves a shared notifier whose link to the other instances came back. */
export interface LocalNotifier extends Notifier {
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

export function createNotifier(): LocalNotifier {
  const byUser = new Map<string, Set<ThreadListener>>();
  const everyone = new Set<ThreadListener>();
  return {
    publish(event) {
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
