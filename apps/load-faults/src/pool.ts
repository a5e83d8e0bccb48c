// A driver's connection pool (undici): every connection opened and used before the measured run, and every
// connection opened or lost during it counted, so a late connect (ADR 0215) shows up in the results.
import { Agent, request } from 'undici';

export interface PoolOptions {
  /** Connections the pool opens and keeps (its cap; requests beyond it queue in the pool). At least 1. */
  size: number;
  /** How long a connect may take before it fails (a starved server accepts late). Default 30 s. */
  connectTimeoutMs?: number;
  /** Idle time after which the pool closes a connection when the server gives no hint. Default 10 min. */
  keepAliveMs?: number;
}

/** What the pool did, in two phases: before `startRun()` (set-up and warm-up) and during the run. */
export interface PoolCounts {
  size: number;
  /** Connections opened before the run. */
  openedBefore: number;
  /** Connections opened during the run: replacements of lost ones (0 when nothing broke). */
  openedDuringRun: number;
  /** Connections lost during the run, by undici's error code (`UND_ERR_SOCKET`: the server closed it). */
  closedDuringRun: Record<string, number>;
  /** Connects that failed (any phase), by error code. */
  connectErrors: Record<string, number>;
  /** Connections open now. */
  open: number;
}

/** The outcome of `warm()`. */
export interface WarmReport {
  /** Connections open after the warm-up (equals `size` when it worked). */
  open: number;
  /** Of those, opened by the warm-up (the rest were opened by the set-up's traffic). */
  opened: number;
  /** Warm-up requests that failed, by error code. */
  errors: Record<string, number>;
  ms: number;
}

export interface WarmPool {
  /** Pass to undici's `fetch`/`request` (`dispatcher`) for every call of the driver. */
  readonly dispatcher: Agent;
  /**
   * Opens the pool's remaining connections and sends one request on each: `size` requests at once through
   * the pool, which gives each its own connection (one request per connection at a time). Repeats for
   * connections still missing (a connection the server closed meanwhile), at most three rounds.
   */
  warm(url: string): Promise<WarmReport>;
  /** From now on a new connection counts as opened during the run. */
  startRun(): void;
  counts(): PoolCounts;
  close(): Promise<void>;
}

const bump = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1;
};
const codeOf = (err: unknown) => {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return 'unknown';
};

/**
 * Creates a pool of `size` keep-alive connections (one undici Agent) with counters.
 *
 * @example
 * ```ts
 * const pool = createPool({ size: 256 });
 * await pool.warm(`${base}/healthz`);
 * pool.startRun();
 * await fetch(`${base}/x`, { dispatcher: pool.dispatcher });
 * pool.counts().openedDuringRun; // 0 unless a connection broke
 * ```
 */
export function createPool(options: PoolOptions): WarmPool {
  if (!Number.isInteger(options.size) || options.size < 1) {
    throw new RangeError(`A pool needs a whole number of connections ≥ 1, not ${options.size}.`);
  }
  const keepAliveMs = options.keepAliveMs ?? 600_000;
  const dispatcher = new Agent({
    connections: options.size,
    connect: { timeout: options.connectTimeoutMs ?? 30_000 },
    // The server's Keep-Alive hint (65 s here) still wins; this is the bound without one.
    keepAliveTimeout: keepAliveMs,
    keepAliveMaxTimeout: keepAliveMs,
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  let running = false;
  let open = 0;
  const counts = {
    openedBefore: 0,
    openedDuringRun: 0,
    closedDuringRun: {} as Record<string, number>,
    connectErrors: {} as Record<string, number>,
  };
  dispatcher.on('connect', () => {
    open++;
    if (running) counts.openedDuringRun++;
    else counts.openedBefore++;
  });
  dispatcher.on('disconnect', (_origin, _targets, err) => {
    open--;
    if (running) bump(counts.closedDuringRun, codeOf(err));
  });
  dispatcher.on('connectionError', (_origin, _targets, err) => bump(counts.connectErrors, codeOf(err)));

  return {
    dispatcher,
    async warm(url) {
      const t0 = performance.now();
      const before = counts.openedBefore;
      const errors: Record<string, number> = {};
      for (let round = 0; round < 3 && open < options.size; round++) {
        // All `size` at once: the pool hands each waiting request to an idle connection or opens one, so
        // the connections already open take some and the rest open the missing ones.
        await Promise.all(
          Array.from({ length: options.size }, async () => {
            try {
              const r = await request(url, { dispatcher });
              await r.body.dump();
            } catch (err) {
              bump(errors, codeOf(err));
            }
          }),
        );
      }
      return { open, opened: counts.openedBefore - before, errors, ms: performance.now() - t0 };
    },
    startRun() {
      running = true;
    },
    counts: () => ({
      size: options.size,
      ...counts,
      closedDuringRun: { ...counts.closedDuringRun },
      connectErrors: { ...counts.connectErrors },
      open,
    }),
    close: () => dispatcher.close(),
  };
}
