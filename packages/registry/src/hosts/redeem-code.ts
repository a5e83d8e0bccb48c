// Redeeming a 6-digit code: the one rule behind host pairing and the OAuth consent page's code entry
// (normalisation, the wrong-code throttle per client address, expiry, and single use).
import { hashSecret, normalizeCode } from '../kernel/crypto.js';
import { ServiceError } from '../kernel/errors.js';
import type { PairingCodeRecord } from '../model/records.js';
import type { Store } from '../model/repositories.js';

/** Wrong codes allowed per client address within the window before `TOO_MANY_ATTEMPTS`. */
export const PAIR_MAX_FAILURES = 10;
export const PAIR_FAILURE_WINDOW_MS = 10 * 60 * 1000;

export interface RedeemCodeInput<T> {
  store: Pick<Store, 'pairing'>;
  /** What the person typed: 6 digits, spaces and dashes ignored (`123456`, `123 456`, `123-456`). */
  code: unknown;
  /** Who is asking (the HTTP client address): wrong codes are counted per address. */
  clientAddr: string;
  at: number;
  /** Runs after the throttle and format checks, before the lookup (the caller's own input checks). */
  check?: () => void;
  /** Takes the unused, unexpired code row; null when another request claimed it first. */
  claim: (row: PairingCodeRecord) => Promise<T | null>;
}

/**
 * Redeems a code for whatever `claim` does with it (bind an agent to a host, approve an OAuth sign-in).
 * Every unknown, expired or lost-the-race code counts one failure for the address.
 *
 * @throws {ServiceError} `TOO_MANY_ATTEMPTS` after {@link PAIR_MAX_FAILURES} wrong codes in 10 minutes,
 * `INVALID_INPUT` (field `code`) when it is not 6 digits, `INVALID_OR_EXPIRED_CODE` when no unused,
 * unexpired code matches.
 * @example
 * ```ts
 * const result = await redeemCode({ store, code: '123-456', clientAddr: ip, at: now(), claim: (row) => bind(row) });
 * ```
 */
export async function redeemCode<T>(input: RedeemCodeInput<T>): Promise<T> {
  const { store, clientAddr, at } = input;
  const since = at - PAIR_FAILURE_WINDOW_MS;
  if ((await store.pairing.countFailures(clientAddr, since)) >= PAIR_MAX_FAILURES) {
    throw new ServiceError('TOO_MANY_ATTEMPTS', 'Too many wrong codes from this address; wait 10 minutes.');
  }
  const digits = normalizeCode(input.code);
  if (digits === null) {
    throw new ServiceError(
      'INVALID_INPUT',
      'code must be the 6 digits shown in the app (spaces or a dash between them are fine).',
      { field: 'code' },
    );
  }
  input.check?.();
  const wrong = async () => {
    await store.pairing.recordFailure(clientAddr, at, since);
    return new ServiceError(
      'INVALID_OR_EXPIRED_CODE',
      'That code is unknown, used or expired: mint a new one in the app (add the agent again, or its Pair button).',
    );
  };
  const row = await store.pairing.findUnused(hashSecret(digits));
  if (!row || row.expiresAt <= at) throw await wrong();
  const result = await input.claim(row);
  if (result === null) throw await wrong();
  return result;
}
