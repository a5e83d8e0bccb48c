// Where rate buckets and failure throttles keep their counts: in this process (the default) or in a store
// every instance shares (PostgreSQL's `svc_limits`, @screen-service/store-postgres), chosen by the server.
import {
  createFailureThrottle,
  type FailureThrottle,
  type FailureThrottleOptions,
} from './failure-throttle.js';
import { createRateLimiter, type RateLimiter, type RateLimitOptions } from './rate-limiter.js';

/**
 * Makes the named buckets and throttles. `name` keeps two limits with equal keys apart in a shared store
 * (`mcp`, `tables`, `sign-in-account`, ...); the in-process store ignores it.
 */
export interface LimitStore {
  rateLimiter(name: string, options: RateLimitOptions): RateLimiter;
  failureThrottle(name: string, options: FailureThrottleOptions): FailureThrottle;
}

/**
 * Counts kept in this process: exact for one instance, per instance when several run.
 *
 * @example
 * ```ts
 * const mcp = memoryLimits.rateLimiter('mcp', { burst: 60, perMinute: 30 });
 * ```
 */
export const memoryLimits: LimitStore = {
  rateLimiter: (_name, options) => createRateLimiter(options),
  failureThrottle: (_name, options) => createFailureThrottle(options),
};
