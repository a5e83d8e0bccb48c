// Rate buckets (doc1's `mcp`, the OAuth endpoints): a token bucket per key (burst, then a sustained rate
// per minute).
import { systemClock } from './system.js';

export interface RateLimitOptions {
  /** Calls allowed at once from a full bucket. */
  burst: number;
  /** Calls regained per minute. */
  perMinute: number;
  now?: () => number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterS: number };

/** Whole seconds (at least 1) until a bucket holding `tokens` has `cost` again, refilling `perMs` a ms. */
export function retryAfterS(cost: number, tokens: number, perMs: number): number {
  return Math.max(1, Math.ceil((cost - tokens) / perMs / 1000));
}

/**
 * Decides per key: in-process ({@link createRateLimiter}) or in a shared store (a Promise, e.g. the
 * PostgreSQL `svc_limits` of @screen-service/store-postgres); callers `await` the decision.
 */
export interface RateLimiter {
  /** Takes `cost` tokens (default 1); a cost above the burst is always refused. */
  take(key: string, cost?: number): RateDecision | Promise<RateDecision>;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * An in-memory token bucket per key. Full buckets are forgotten, so memory follows active keys.
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter({ burst: 60, perMinute: 30 });
 * const d = limiter.take(connectorId);
 * if (!d.ok) res.status(429).set('retry-after', String(d.retryAfterS));
 * ```
 */
export function createRateLimiter(options: RateLimitOptions): {
  take(key: string, cost?: number): RateDecision;
} {
  const { burst, perMinute } = options;
  if (!(burst >= 1) || !(perMinute > 0)) {
    throw new RangeError('createRateLimiter: burst must be at least 1 and perMinute above 0.');
  }
  const now = options.now ?? systemClock;
  const perMs = perMinute / 60_000;
  const buckets = new Map<string, Bucket>();
  let sweepAt = 0;

  function sweep(t: number) {
    for (const [key, b] of buckets) if (b.tokens + (t - b.at) * perMs >= burst) buckets.delete(key);
  }

  return {
    take(key, cost = 1) {
      const t = now();
      // Never clamped to the burst: a batch of 100 calls costs 100, so it cannot pass a bucket of 60.
      const need = cost;
      if (t >= sweepAt) {
        sweepAt = t + 60_000;
        sweep(t);
      }
      const b = buckets.get(key) ?? { tokens: burst, at: t };
      const tokens = Math.min(burst, b.tokens + (t - b.at) * perMs);
      if (tokens >= need) {
        buckets.set(key, { tokens: tokens - need, at: t });
        return { ok: true };
      }
      buckets.set(key, { tokens, at: t });
      return { ok: false, retryAfterS: retryAfterS(need, tokens, perMs) };
    },
  };
}
