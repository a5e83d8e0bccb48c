// The one place service-core reads the wall clock and the operating system's randomness; every rule takes
// them injected (`now`, `random`) so tests move time and seed ids (a test scans src to keep it so).
import { randomBytes } from 'node:crypto';

/** Milliseconds since the epoch. Rules take one of these as `now`. */
export type Clock = () => number;

/** Where rules draw random bytes from (ids, tokens, codes, photo file names). */
export interface Random {
  /** `n` fresh random bytes. */
  bytes(n: number): Uint8Array;
}

/** The wall clock: the default `now` of every rule. */
export const systemClock: Clock = () => Date.now();

/** The operating system's CSPRNG: the default `random` of every rule. */
export const systemRandom: Random = { bytes: (n) => randomBytes(n) };

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
