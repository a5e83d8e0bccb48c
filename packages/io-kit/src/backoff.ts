// One retry back-off policy: a first delay, a growth factor, a cap, and jitter drawn from injected randomness.

/** How long to wait before each retry. */
export interface BackoffPolicy {
  /** The delay before the first retry (ms, 0 or more). */
  baseMs: number;
  /** Each later retry waits this many times longer than the one before (1 or more); default 2. */
  factor?: number;
  /** The longest delay before jitter (ms, finite: a timer given more than 2^31 ms fires at once). */
  maxMs: number;
  /**
   * The capped delay is multiplied by a number drawn uniformly between these two (0 ≤ low ≤ high), so a
   * fleet of clients that failed together does not come back together; default `[1, 1]`, no jitter.
   * `[0.5, 1]` waits between half and all of the delay; `[1, 1.2]` up to a fifth more.
   */
  jitter?: readonly [low: number, high: number];
}

/**
 * The delay (whole ms) before retry number `retry` (1 for the first retry): `baseMs × factor^(retry-1)`,
 * at most `maxMs`, times the jitter factor `random` picks (a number in [0, 1) from the caller's randomness).
 *
 * @throws {RangeError} when the policy or `retry` is out of range (a programming error).
 * @example
 * ```ts
 * const policy = { baseMs: 500, maxMs: 30_000, jitter: [0.5, 1] } as const;
 * backoffDelay(policy, 1, 0.999); // 500
 * backoffDelay(policy, 4, 0); // 2000
 * backoffDelay(policy, 20, Math.random()); // between 15000 and 30000
 * ```
 */
export function backoffDelay(policy: BackoffPolicy, retry: number, random = 0): number {
  const factor = policy.factor ?? 2;
  const [low, high] = policy.jitter ?? [1, 1];
  if (
    !(policy.baseMs >= 0) ||
    !(factor >= 1) ||
    !(policy.maxMs >= 0 && Number.isFinite(policy.maxMs)) ||
    !(low >= 0 && high >= low)
  )
    throw new RangeError(
      `backoffDelay: the policy needs baseMs >= 0, factor >= 1, a finite maxMs >= 0 and 0 <= jitter[0] <= jitter[1]; got ${JSON.stringify(policy)}`,
    );
  if (!Number.isInteger(retry) || retry < 1)
    throw new RangeError(`backoffDelay: retry counts from 1 (the first retry); got ${retry}`);
  if (!(random >= 0 && random < 1))
    throw new RangeError(`backoffDelay: random must be in [0, 1), as Math.random() gives; got ${random}`);
  // Past the cap the power may overflow to Infinity (and 0 × Infinity is NaN): stop growing at the cap.
  const grown = policy.baseMs === 0 ? 0 : policy.baseMs * factor ** (retry - 1);
  const capped = Number.isFinite(grown) ? Math.min(policy.maxMs, grown) : policy.maxMs;
  return Math.round(capped * (low + (high - low) * random));
}
