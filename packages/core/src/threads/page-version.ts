// The page version rule (ADR 0216, 0241): every write that changes what a thread's pages show moves the
// thread to a value never seen before, drawn here; the store writes it with the change.
import { type Random, systemRandom } from '@screen-service/registry/kernel';
import type { PageVersion } from '@screen-service/registry/model';

/**
 * A fresh page version: 53 random bits (a whole number below 2^53, exact in a double and in BIGINT), so a
 * value never comes back, and a thread removed and begun again (a share revoked, then granted anew) never
 * matches a page built for its old life.
 *
 * @example
 * ```ts
 * await store.threads.append(row, newPageVersion(random));
 * ```
 */
export function newPageVersion(random: Random = systemRandom): PageVersion {
  const b = random.bytes(7);
  // 5 bits of the first byte and 48 of the other six.
  let v = b[0]! & 0x1f;
  for (let i = 1; i < 7; i++) v = v * 256 + b[i]!;
  return v;
}
