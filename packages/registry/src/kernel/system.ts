// The one place the domain reads the wall clock and the operating system's randomness; every rule takes
// them injected (`now`, `random`) so tests move time and seed ids (a test scans src to keep it so).
import { randomBytes, randomFillSync } from 'node:crypto';

/** Milliseconds since the epoch. Rules take one of these as `now`. */
export type Clock = () => number;

/** Where rules draw random bytes from (ids, tokens, codes, photo file names). */
export interface Random {
  /** `n` fresh random bytes. */
  bytes(n: number): Uint8Array;
}

/** The wall clock: the default `now` of every rule. */
export const systemClock: Clock = () => Date.now();

// Bytes are drawn from the CSPRNG a pool at a time: one randomBytes call per id cost about 8% of a svc_show
// (three ids per call, ADR 0205). Each byte is handed out once and wiped from the pool as it leaves.
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;

function pooledBytes(n: number): Uint8Array {
  if (n > POOL_BYTES / 4) return randomBytes(n);
  if (used + n > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const out = pool.slice(used, used + n);
  pool.fill(0, used, used + n);
  used += n;
  return out;
}

/** The operating system's CSPRNG: the default `random` of every rule. */
export const systemRandom: Random = { bytes: pooledBytes };

/**
 * A deterministic `Random` for tests (xorshift32 from a seed): the same seed gives the same ids and codes.
 * Never use it outside tests: it is predictable by design.
 *
 * @example
 * ```ts
 * const random = seededRandom(42);
 * newId('usr_', random); // the same id on every run
 * ```
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0 || 0x9e3779b9;
  return {
    bytes(n) {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        state ^= state << 13;
        state >>>= 0;
        state ^= state >>> 17;
        state ^= state << 5;
        state >>>= 0;
        out[i] = state & 0xff;
      }
      return out;
    },
  };
}
