// Live agent status (moved from the registry with ADR 0285: it is a running watch the core composes, not a rule) (doc2 "States"): status stays derived, never stored; this watch only notices when a
// connection crosses the 2-minute line either way and tells the person's open app to redraw its list.

import { CONNECTED_WINDOW_MS } from '@screen-service/registry/agents';
import type { Clock, Notifier } from '@screen-service/registry/kernel';
import type { ConnectorRecord, Store } from '@screen-service/registry/model';

export interface StatusWatchOptions {
  store: Pick<Store, 'connectors'>;
  notifier: Pick<Notifier, 'publish'>;
  now: Clock;
  /** How often (real milliseconds) lapsed connections are looked for; default 5 s. */
  tickMs?: number;
}

export interface StatusWatch {
  /** A connection was seen (heartbeat or call) at `at`: a silent one coming back redraws the list. */
  seen(connector: Pick<ConnectorRecord, 'id' | 'userId'>, at: number): void;
  /**
   * Picks up connections seen since the last sweep that this process was not told of (a pairing, another
   * process), then publishes `agents` for every connection that went silent. The timer calls it.
   */
  sweep(): Promise<void>;
  /** Loads the connections seen within the window (after a restart) and starts the timer. */
  start(): Promise<void>;
  stop(): void;
  /** Connections currently counted as connected (tests and the benchmark read it). */
  size(): number;
}

/**
 * @example
 * ```ts
 * const watch = createStatusWatch({ store, notifier, now: clock });
 * await watch.start();
 * watch.seen(connector, clock()); // on each heartbeat
 * ```
 */
export function createStatusWatch(options: StatusWatchOptions): StatusWatch {
  const { store, notifier, now } = options;
  const tickMs = options.tickMs ?? 5000;
  const live = new Map<string, { userId: string; at: number }>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let lastSweep = 0;
  // One load or sweep at a time, in call order: a sweep asked for while another runs waits and then runs
  // (it used to return at once, having swept nothing), and the first sweep runs after start's load.
  let running: Promise<void> | null = null;
  async function serial(work: () => Promise<void>): Promise<void> {
    while (running) await running.catch(() => {});
    const run = work();
    running = run;
    try {
      await run;
    } finally {
      if (running === run) running = null;
    }
  }

  const watch: StatusWatch = {
    seen(connector, at) {
      const was = live.get(connector.id);
      live.set(connector.id, { userId: connector.userId, at: Math.max(at, was?.at ?? 0) });
      if (!was) notifier.publish({ type: 'agents', userId: connector.userId });
    },
    sweep() {
      return serial(async () => {
        const t = now();
        const since = lastSweep === 0 ? t - CONNECTED_WINDOW_MS : Math.min(lastSweep, t) - 1000;
        lastSweep = t;
        for (const c of await store.connectors.listSeenSince(since)) {
          if (c.lastSeenAt === null) continue;
          if (t - c.lastSeenAt <= CONNECTED_WINDOW_MS) watch.seen(c, c.lastSeenAt);
          // Seen (a pairing, another process) and lapsed between two sweeps: an open app may have drawn it
          // Connected in that gap, so it hears the change too.
          else if (!live.has(c.id)) notifier.publish({ type: 'agents', userId: c.userId });
        }
        expire(t);
      });
    },
    async start() {
      await serial(async () => {
        lastSweep = now();
        for (const c of await store.connectors.listSeenSince(lastSweep - CONNECTED_WINDOW_MS)) {
          if (c.lastSeenAt !== null) live.set(c.id, { userId: c.userId, at: c.lastSeenAt });
        }
      });
      // The timer skips a tick while a sweep still runs (a slow database) instead of queueing behind it.
      timer ??= setInterval(() => {
        if (!running) void watch.sweep().catch(() => {});
      }, tickMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    size() {
      return live.size;
    },
  };
  function expire(t: number) {
    for (const [id, entry] of live) {
      if (t - entry.at <= CONNECTED_WINDOW_MS) continue;
      live.delete(id);
      notifier.publish({ type: 'agents', userId: entry.userId });
    }
  }
  return watch;
}
