// Password hashing behind a small interface; the default is argon2id through @node-rs/argon2.
import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2's `Algorithm.Argon2id` is an ambient const enum, which isolated modules cannot read.
const ARGON2ID = 2;

import type { PasswordHasher } from './password-hasher-port.js';

export type { PasswordHasher };

/**
 * argon2id with the OWASP minimum parameters (19 MiB, 2 passes, 1 lane) unless told otherwise.
 *
 * @example
 * ```ts
 * const hasher = createArgon2idHasher();
 * const stored = await hasher.hash('correct horse');  // '$argon2id$v=19$m=19456,t=2,p=1$...'
 * await hasher.verify(stored, 'correct horse');        // true
 * ```
 */
export function createArgon2idHasher(
  params: { memoryCost?: number; timeCost?: number; parallelism?: number } = {},
): PasswordHasher {
  const options = {
    algorithm: ARGON2ID,
    memoryCost: params.memoryCost ?? 19_456,
    timeCost: params.timeCost ?? 2,
    parallelism: params.parallelism ?? 1,
  };
  return {
    hash: (password) => hash(password, options),
    async verify(stored, password) {
      try {
        return await verify(stored, password);
      } catch {
        return false;
      }
    },
  };
}
