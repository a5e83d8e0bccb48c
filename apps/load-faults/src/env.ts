// The one place the load and fault CLIs read their environment, each variable with its rule (io-kit's reader).
import { readEnv } from '@screen-service/io-kit/env';
import { z } from 'zod';
import { UsageError } from './cli-args.js';

/** The variables the CLIs read (empty counts as unset). */
export const LOAD_ENV = {
  /** A folder: each load driver writes its 200 slowest HTTP requests there (`driver-<n>.jsonl`). */
  LOAD_TRACE_DIR: z.string(),
};

/**
 * The checked variables of `env` (the process's by default: this module is where it is read).
 *
 * @throws {UsageError} naming the variable (the CLI prints it with the help and exits 2).
 * @example
 * ```ts
 * readLoadEnv({ LOAD_TRACE_DIR: '/tmp/trace' }).LOAD_TRACE_DIR; // '/tmp/trace'
 * ```
 */
export function readLoadEnv(env: Readonly<Record<string, string | undefined>> = process.env) {
  return readEnv(env, LOAD_ENV, (message) => new UsageError(message));
}
