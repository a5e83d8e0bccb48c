// The native-agent runtime: one turn at a time per thread on the hosts' turn machinery (rows delivered,
// working row, answer with `meta.turn`, rows handled), replies through the tables call's reply path and
// Screen Lines validation, per-account limits, and a clear line in the thread when the model fails.

import type { Core } from '@screen-service/core';
import type { ModelClient } from './model-client.js';
import { createTurn, type ThreadRun } from './native-turn.js';
import { TURN_LEASE_MS, type TurnLeases } from './turn-leases.js';
import { createLimits, type ModelLimits, type UsageMeter } from './usage.js';

// Where the rest of the package and its index have always found it.
export { nativePrincipal } from './native-turn.js';

/** Thread rows the model sees, newest last. */
const DEFAULT_HISTORY = 40;
/** Waits before trying a failed turn again, one per failure in a row (the last repeats). */
// A list of chosen steps the operator may replace (`retryMs`), not io-kit's back-off policy: the waits are
// picked (5 s, 15 s, a minute, then every 5 minutes), not grown from a base by a factor.
const DEFAULT_RETRY_MS = [5_000, 15_000, 60_000, 300_000];

/** What the runtime uses of the core. */
export type RuntimeCore = Pick<Core, 'store' | 'notifier' | 'hostTransport' | 'tables' | 'clock'> &
  Partial<Pick<Core, 'limits'>>;

export interface NativeRuntimeOptions {
  core: RuntimeCore;
  model: ModelClient;
  /** The channel guide text (`guide().text` of @screen-service/screen-lines). */
  guide: string;
  limits?: ModelLimits;
  usage?: UsageMeter;
  /** Rows of history per turn; default 40. */
  history?: number;
  /** Back-off after failed turns (ms); default 5 s, 15 s, 1 min, then every 5 min. */
  retryMs?: number[];
  /** Default setTimeout; returns a cancel function. */
  schedule?: (run: () => void, ms: number) => () => void;
  /** Unexpected errors (the turn is retried later). */
  onError?: (err: unknown, agentId: string) => void;
  /**
   * With several instances on one database: each turn runs under this agent's lease, so one instance of
   * all runs it (ADR 0227). An instance refused the lease looks again when it would lapse.
   */
  leases?: TurnLeases;
  /** This runtime's name in the leases; default a random one. */
  holder?: string;
  /** Lease length (renewed every third of it while a turn runs); default 60 s. */
  leaseMs?: number;
}

/** The running runtime. */
export interface NativeRuntime {
  /** Starts listening and runs the turns owed since the last stop. */
  start(): Promise<void>;
  stop(): void;
  /** Runs the agent's owed rows now (or right after its running turn). */
  kick(agentId: string, userId: string): void;
  /** Resolves when no turn is running or queued to run at once (tests). */
  idle(): Promise<void>;
}

/**
 * @example
 * ```ts
 * const runtime = createNativeRuntime({ core, model: createModelClient(config), guide: guide().text });
 * await runtime.start();
 * ```
 */
export function createNativeRuntime(options: NativeRuntimeOptions): NativeRuntime {
  const { core } = options;
  const { store } = core;
  const now = core.clock;
  const limits = createLimits(options.limits ?? {}, now, options.usage, core.limits);
  const retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  const history = options.history ?? DEFAULT_HISTORY;
  const schedule =
    options.schedule ??
    ((run: () => void, ms: number) => {
      const t = setTimeout(run, ms);
      t.unref?.();
      return () => clearTimeout(t);
    });
  const runs = new Map<string, ThreadRun>();
  const waiters = new Set<() => void>();
  let unsubscribe: (() => void) | null = null;
  let stopped = false;
  const leases = options.leases ?? null;
  const holder = options.holder ?? `native-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  const leaseMs = options.leaseMs ?? TURN_LEASE_MS;

  const busy = () => [...runs.values()].some((r) => r.running);
  const settleIdle = () => {
    if (busy()) return;
    for (const w of [...waiters]) w();
    waiters.clear();
  };

  function runOf(agentId: string): ThreadRun {
    let r = runs.get(agentId);
    if (!r) {
      r = { running: false, again: false, failures: 0, cancel: null, notes: [] };
      runs.set(agentId, r);
    }
    return r;
  }

  function later(agentId: string, userId: string, ms: number) {
    const r = runOf(agentId);
    r.cancel?.();
    r.cancel = schedule(() => {
      r.cancel = null;
      kick(agentId, userId);
    }, ms);
  }

  const turn = createTurn({
    core,
    model: options.model,
    guide: options.guide,
    limits,
    history,
    retryMs,
    onError: options.onError,
    later,
  });

  async function kickOwed() {
    for (const owed of await store.nativeAgents.listWithPending()) kick(owed.agentId, owed.userId);
  }

  function kick(agentId: string, userId: string) {
    if (stopped) return;
    const r = runOf(agentId);
    if (r.running) {
      // Messages sent during a turn go in together as the next one.
      r.again = true;
      return;
    }
    r.cancel?.();
    r.cancel = null;
    r.running = true;
    void (async () => {
      try {
        do {
          r.again = false;
          try {
            await leased(agentId, userId, () => turn(agentId, userId, r));
          } catch (err) {
            // A store or transport failure outside the model call: report it and try the turn again later.
            options.onError?.(err, agentId);
            later(agentId, userId, retryMs[Math.min(r.failures++, retryMs.length - 1)]!);
          }
        } while (r.again && !stopped);
      } finally {
        r.running = false;
        settleIdle();
      }
    })();
  }

  /**
   * Runs `work` under the agent's lease when there are leases (several instances). Another instance holding
   * it runs the turn; this one looks again when the lease would lapse (that instance may have died).
   */
  async function leased(agentId: string, userId: string, work: () => Promise<void>) {
    if (!leases) return await work();
    if (!(await leases.claim(agentId, holder, leaseMs))) {
      later(agentId, userId, leaseMs);
      return;
    }
    // A long turn (a slow model, retries) keeps its lease.
    const renew = setInterval(() => {
      void leases.claim(agentId, holder, leaseMs).catch((err) => options.onError?.(err, agentId));
    }, leaseMs / 3);
    renew.unref?.();
    try {
      await work();
    } finally {
      clearInterval(renew);
      await leases.release(agentId, holder).catch((err) => options.onError?.(err, agentId));
    }
  }

  return {
    async start() {
      stopped = false;
      unsubscribe = core.notifier.subscribeAll((e) => {
        // Rows written on another instance while the link was down: whatever is owed runs now.
        if (e.type === 'resync') void kickOwed().catch((err) => options.onError?.(err, ''));
        if (e.type !== 'message' || e.message.sender !== 'person' || e.message.handledAt !== null) return;
        const { agentId, userId } = e;
        void store.nativeAgents
          .get(agentId)
          .then((n) => {
            if (n) kick(agentId, userId);
          })
          .catch((err) => options.onError?.(err, agentId));
      });
      await kickOwed();
    },
    stop() {
      stopped = true;
      unsubscribe?.();
      unsubscribe = null;
      for (const r of runs.values()) r.cancel?.();
    },
    kick,
    idle() {
      if (!busy()) return Promise.resolve();
      return new Promise((resolve) => waiters.add(resolve));
    },
  };
}
