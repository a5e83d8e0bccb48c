// The one place svc-a2a reads its environment (the variables the bin passes in), each with its rule.
import { readEnv } from '@screen-service/io-kit/env';
import { z } from 'zod';
import { UsageError } from './commands/home.js';

/** The variables svc-a2a reads and the rule each must pass (empty counts as unset). */
export const BRIDGE_ENV = {
  SVC_BASE_URL: z
    .url({ message: 'must be an absolute http(s) URL, for example http://localhost:8787' })
    .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://'),
  SVC_A2A_HOME: z.string(),
};

/**
 * `SVC_BASE_URL` (the service `pair` talks to) and `SVC_A2A_HOME` (the bridge's folder) from `env`.
 *
 * @throws {UsageError} naming the variable and an example (exit code 2).
 * @example
 * ```ts
 * readBridgeEnv({ SVC_BASE_URL: 'https://svc.example' }); // { SVC_BASE_URL: 'https://svc.example' }
 * ```
 */
export function readBridgeEnv(env: Readonly<Record<string, string | undefined>>) {
  return readEnv(env, BRIDGE_ENV, (message) => new UsageError(message));
}
