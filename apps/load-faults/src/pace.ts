// A client-side copy of the service's token bucket, so each client stays inside its own `mcp` bucket. Pure.

export interface PaceOptions {
  /** Calls available at once (the service's burst, minus a margin). */
  burst: number;
  /** Sustained calls per minute. */
  perMinute: number;
  now?: () => number;
}

/**
 * `delayFor(n)` reserves n calls and says how long to wait before making them (0 = now). Reservations
 * queue, so concurrent callers of one client never overdraw it together.
 *
 * @example
 * ```ts
 * const pace = createPace({ burst: 56, perMinute: 30 });
 * await sleep(pace.delayFor(1));
 * ```
 */
export function createPace(options: PaceOptions) {
  const now = options.now ?? Date.now;
  const ratePerMs = options.perMinute / 60_000;
  let tokens = options.burst;
  let at = now();
  return {
    delayFor(n = 1): number {
      const t = now();
      tokens = Math.min(options.burst, tokens + (t - at) * ratePerMs);
      at = t;
      tokens -= n;
      return tokens >= 0 ? 0 : Math.ceil(-tokens / ratePerMs);
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
