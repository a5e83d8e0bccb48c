// Back-off after repeated failures per key (an account's email, a client address): a few free tries, then
// each further try waits twice as long as the one before, up to a cap. Success clears the key.
import { systemClock } from './system.js';

/** Options of {@link createFailureThrottle}. */
export interface FailureThrottleOptions {
  /** Failures allowed before any wait. */
  freeFailures: number;
  /** The first wait after the free failures (ms); each further failure doubles it. */
  baseDelayMs: number;
  /** The longest wait (ms). */
  maxDelayMs: number;
  /** A key with no failure for this long starts over (ms). */
  forgetAfterMs: number;
  now?: () => number;
}

/** A decision for one try: go ahead, or wait `retryAfterS` seconds. */
export type ThrottleDecision = { ok: true } | { ok: false; retryAfterS: number };

/** Counts failures per key: in-process, or in a shared store (Promises; callers `await` each call). */
export interface FailureThrottle {
  /** May this key try now? Asked before the password is even looked at. */
  check(key: string): ThrottleDecision | Promise<ThrottleDecision>;
  /** Records a failed try. */
  fail(key: string): void | Promise<void>;
  /** Clears the key after a success. */
  succeed(key: string): void | Promise<void>;
}

/**
 * The wait (ms) after `failures` failures in a row: none for the free ones, then doubling up to the cap.
 * A penalty the service imposes on a guesser, not io-kit's retry back-off (`backoffDelay`), though both
 * double: it counts from the free failures and has no jitter (the wait is a rule, told to the client as
 * Retry-After), so it is kept here rather than forced into that policy.
 */
export function failureDelayMs(
  options: Pick<FailureThrottleOptions, 'freeFailures' | 'baseDelayMs' | 'maxDelayMs'>,
  failures: number,
): number {
  return failures < options.freeFailures
    ? 0
    : Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.min(30, failures - options.freeFailures));
}

interface Entry {
  failures: number;
  lastAt: number;
}

/**
 * @example
 * ```ts
 * const byEmail = createFailureThrottle({ freeFailures: 5, baseDelayMs: 1000, maxDelayMs: 15 * 60_000, forgetAfterMs: 24 * 3600_000 });
 * const d = byEmail.check(email); // { ok: false, retryAfterS: 8 } after 8 wrong passwords in a row
 * ```
 */
export function createFailureThrottle(
  options: FailureThrottleOptions,
): Omit<FailureThrottle, 'check'> & { check(key: string): ThrottleDecision } {
  const now = options.now ?? systemClock;
  const entries = new Map<string, Entry>();
  let sweepAt = 0;
  const delayOf = (failures: number) => failureDelayMs(options, failures);
  const live = (key: string, t: number) => {
    const e = entries.get(key);
    if (e && t - e.lastAt >= options.forgetAfterMs) {
      entries.delete(key);
      return undefined;
    }
    return e;
  };
  return {
    check(key) {
      const t = now();
      if (t >= sweepAt) {
        // Forgotten keys leave memory, so it follows the keys that are failing now.
        sweepAt = t + 60_000;
        for (const k of entries.keys()) live(k, t);
      }
      const e = live(key, t);
      if (!e) return { ok: true };
      const waitUntil = e.lastAt + delayOf(e.failures);
      return t >= waitUntil ? { ok: true } : { ok: false, retryAfterS: Math.ceil((waitUntil - t) / 1000) };
    },
    fail(key) {
      const t = now();
      const e = live(key, t);
      entries.set(key, { failures: (e?.failures ?? 0) + 1, lastAt: t });
    },
    succeed(key) {
      entries.delete(key);
    },
  };
}
