// Rate buckets and failure throttles in PostgreSQL, exact across instances: each take is one atomic
// statement (INSERT ... ON CONFLICT DO UPDATE ... RETURNING) under the row's lock; takes of one key that
// arrive while its statement is on its way go out together in the next one (ADRs 0291, 0296).
import {
  type FailureThrottle,
  type FailureThrottleOptions,
  failureDelayMs,
  type LimitStore,
  type RateDecision,
  type RateLimiter,
  type RateLimitOptions,
  retryAfterS,
} from '@screen-service/registry/kernel';
import type pg from 'pg';
import { type Outcome, settle, whileBusy } from '../store/while-busy.js';

/** At most this many takes of one key in one statement. */
const MAX_TAKES = 256;

/** Options of {@link createPostgresLimits}. */
export interface PostgresLimitsOptions {
  pool: pg.Pool;
  /** How often each limit drops its full buckets and forgotten keys (ms); default 60 s. */
  sweepMs?: number;
}

// Refill since the last take (never negative when instances' clocks differ slightly), capped at the burst.
const AVAILABLE = 'least($3::float8, l.tokens + greatest(0, $6::float8 - l.at_ms) * $4::float8)';
const TAKE = `INSERT INTO svc_limits AS l (name, key, tokens, at_ms, burst, per_ms, granted)
VALUES ($1, $2, CASE WHEN $5::float8 <= $3::float8 THEN $3::float8 - $5::float8 ELSE $3::float8 END,
        $6::float8, $3::float8, $4::float8, $5::float8 <= $3::float8)
ON CONFLICT (name, key) DO UPDATE SET
  granted = ${AVAILABLE} >= $5::float8,
  tokens = ${AVAILABLE} - CASE WHEN ${AVAILABLE} >= $5::float8 THEN $5::float8 ELSE 0 END,
  at_ms = greatest(l.at_ms, $6::float8),
  burst = $3::float8,
  per_ms = $4::float8
RETURNING granted, tokens`;
const SWEEP_BUCKETS = `DELETE FROM svc_limits
WHERE name = $1 AND tokens + greatest(0, $2::float8 - at_ms) * per_ms >= burst`;

const FAIL = `INSERT INTO svc_limit_failures AS l (name, key, failures, last_at_ms) VALUES ($1, $2, 1, $3::float8)
ON CONFLICT (name, key) DO UPDATE SET
  failures = CASE WHEN $3::float8 - l.last_at_ms >= $4::float8 THEN 1 ELSE l.failures + 1 END,
  last_at_ms = greatest(l.last_at_ms, $3::float8)`;

function rateLimiter(pool: pg.Pool, sweepMs: number, name: string, options: RateLimitOptions): RateLimiter {
  const { burst, perMinute } = options;
  if (!(burst >= 1) || !(perMinute > 0)) {
    throw new RangeError(`rate limit ${name}: burst must be at least 1 and perMinute above 0.`);
  }
  const now = options.now ?? Date.now;
  const perMs = perMinute / 60_000;
  let sweepAt = 0;
  /** One statement taking `cost` tokens of `key`'s bucket, all or nothing. */
  async function takeNow(key: string, cost: number): Promise<RateDecision> {
    const t = now();
    if (t >= sweepAt) {
      sweepAt = t + sweepMs;
      void pool.query(SWEEP_BUCKETS, [name, t]).catch(() => {});
    }
    // Named: every pooled connection plans it once (it runs on every tool call and every host write).
    const r = await pool.query<{ granted: boolean; tokens: number }>({
      name: 'svc_limits_take',
      text: TAKE,
      values: [name, key, burst, perMs, cost, t],
    });
    const row = r.rows[0]!;
    return row.granted ? { ok: true } : { ok: false, retryAfterS: retryAfterS(cost, row.tokens, perMs) };
  }
  // Takes of a key that come while its statement is on its way (or in one turn) go in the next statement
  // together (ADR 0296). When the bucket cannot give them all, each is taken alone, in order, so the edge of
  // the limit stays exact; once one is refused, the rest of the batch (no cheaper) is refused with it.
  const take = whileBusy<number, RateDecision>({
    max: MAX_TAKES,
    one: (cost, key) => takeNow(key, cost),
    async many(costs, key) {
      const together = await takeNow(
        key,
        costs.reduce((n, c) => n + c, 0),
      ).catch(() => null);
      if (together?.ok) return costs.map(() => ({ ok: true, value: together }));
      const outcomes: Outcome<RateDecision>[] = [];
      let refused: { d: RateDecision; cost: number } | null = null;
      for (const cost of costs) {
        if (refused && cost >= refused.cost) {
          outcomes.push({ ok: true, value: refused.d });
          continue;
        }
        const alone = await settle(() => takeNow(key, cost));
        outcomes.push(alone);
        if (alone.ok && !alone.value.ok) refused = { d: alone.value, cost };
      }
      return outcomes;
    },
  });
  return { take: (key, cost = 1) => take(key, cost) };
}

function failureThrottle(
  pool: pg.Pool,
  sweepMs: number,
  name: string,
  options: FailureThrottleOptions,
): FailureThrottle {
  const now = options.now ?? Date.now;
  let sweepAt = 0;
  return {
    async check(key) {
      const t = now();
      if (t >= sweepAt) {
        sweepAt = t + sweepMs;
        void pool
          .query('DELETE FROM svc_limit_failures WHERE name = $1 AND last_at_ms <= $2::float8', [
            name,
            t - options.forgetAfterMs,
          ])
          .catch(() => {});
      }
      const r = await pool.query<{ failures: number; last_at_ms: number }>(
        'SELECT failures, last_at_ms FROM svc_limit_failures WHERE name = $1 AND key = $2',
        [name, key],
      );
      const e = r.rows[0];
      if (!e || t - e.last_at_ms >= options.forgetAfterMs) return { ok: true };
      const waitUntil = e.last_at_ms + failureDelayMs(options, e.failures);
      return t >= waitUntil ? { ok: true } : { ok: false, retryAfterS: Math.ceil((waitUntil - t) / 1000) };
    },
    async fail(key) {
      await pool.query(FAIL, [name, key, now(), options.forgetAfterMs]);
    },
    async succeed(key) {
      await pool.query('DELETE FROM svc_limit_failures WHERE name = $1 AND key = $2', [name, key]);
    },
  };
}

/**
 * Limits every instance on the database shares: the 61st call of a 60-call burst is refused whichever
 * instance takes it. Needs {@link LIMITS_MIGRATION}.
 *
 * @example
 * ```ts
 * const limits = createPostgresLimits({ pool });
 * const mcp = limits.rateLimiter('mcp', { burst: 60, perMinute: 30 });
 * const d = await mcp.take(connectorId);
 * ```
 */
export function createPostgresLimits(options: PostgresLimitsOptions): LimitStore {
  const sweepMs = options.sweepMs ?? 60_000;
  return {
    rateLimiter: (name, o) => rateLimiter(options.pool, sweepMs, name, o),
    failureThrottle: (name, o) => failureThrottle(options.pool, sweepMs, name, o),
  };
}
