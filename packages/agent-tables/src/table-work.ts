// How much table work one person's agents may ask of the service (ADR 0254): a rows-scanned budget per
// account per minute, a cap on one call's work, and yielding between lines so other requests keep moving.
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RateLimiter } from '@screen-service/registry/kernel';
import type { CallPace } from '@screen-service/tables-engine';

/** The knobs of {@link createTableWork}. */
export interface TableWorkLimits {
  /** Rows the person's queries may scan per minute, across all their agents (a full bucket at once). */
  rowsPerMinute: number;
  /** Work (ms) one call may take; the lines after it are refused `LIMIT_TIME`. */
  maxCallMs: number;
  /** Work (ms) between two yields to the rest of the process. */
  sliceMs: number;
}

/**
 * 200,000 rows a minute is 40 queries over a full 5,000-row table; a call stops after 1 s of work; a call
 * gives way to other requests every 5 ms (apps/server/bench/table-work.bench.ts: /healthz under 50 heavy
 * calls, median 169-581 ms unpaced, 27-41 ms at 10 ms slices, 14-27 ms at 5 ms, no slower in total; ADR 0254).
 */
export const TABLE_WORK_DEFAULTS: TableWorkLimits = { rowsPerMinute: 200_000, maxCallMs: 1_000, sliceMs: 5 };

/** What {@link createTableWork} is built from. */
export interface TableWorkOptions {
  /** A bucket of `rowsPerMinute` tokens keyed by account (shared across instances when the limits are). */
  limiter: RateLimiter;
  limits?: Partial<TableWorkLimits>;
  /** The work clock (real time: the core's injected clock may stand still in tests). */
  clock?: () => number;
  yieldNow?: () => Promise<void>;
}

/**
 * The pace of each tables call of one account.
 *
 * @example
 * ```ts
 * const paceOf = createTableWork({ limiter: limits.rateLimiter('table-rows', { burst: 200_000, perMinute: 200_000 }) });
 * await runLines(engine, { ...call, pace: paceOf(userId) });
 * ```
 */
export function createTableWork(options: TableWorkOptions): (userId: string) => CallPace {
  const limits = { ...TABLE_WORK_DEFAULTS, ...options.limits };
  const clock = options.clock ?? (() => performance.now());
  const yieldNow = options.yieldNow ?? (() => nextTurn());
  return (userId) => ({
    clock,
    yieldNow,
    sliceMs: limits.sliceMs,
    maxMs: limits.maxCallMs,
    async admit(rows) {
      const decision = await options.limiter.take(userId, Math.max(1, rows));
      if (decision.ok) return true;
      return `this account's queries scanned their ${limits.rowsPerMinute.toLocaleString('en-US')} rows for this minute (this one would scan ${rows}); try again in ${decision.retryAfterS} s, or narrow the query with where= on a smaller table`;
    },
  });
}
