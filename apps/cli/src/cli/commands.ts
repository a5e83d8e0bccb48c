// The operator CLI's commands as functions over an injected environment, so tests run them in-process.

import { isServiceError } from '@screen-service/registry/kernel';
import type { ServerConfig } from '@screen-service/server';
import { withServices } from './open-services.js';

/** Exit codes: 0 done, 1 unexpected failure, 2 usage or configuration error, 3 refused by a rule. */
export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2, REFUSED: 3 } as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export interface UserAddInput {
  email: string;
  password: string;
}

/** `svc user add`: creates an account (argon2id-hashed password). */
export async function userAdd(
  config: ServerConfig,
  input: UserAddInput,
): Promise<{ id: string; email: string }> {
  return await withServices(config, (svc, where) => refusals(() => svc.accounts.createUser(input), where));
}

export interface ConnectInput {
  email: string;
  agent: string;
  hostName: string;
}

export interface ConnectOutput {
  mcp_url: string;
  connector_token: string;
  agent: { id: string; name: string; handle: string };
}

/** `svc connect`: creates an agent for the account, pairs it as an MCP connection, returns the token once. */
export async function connect(config: ServerConfig, input: ConnectInput): Promise<ConnectOutput> {
  return await withServices(config, (svc, where) => refusals(() => svc.connectAgent(input), where));
}

/** Rule refusals become exit codes; a refusal depends on what the database holds, so it names the store. */
async function refusals<T>(fn: () => Promise<T>, where: string): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    // A missing account (NOT_FOUND on email) is a refusal like any rule's, with the fix in its message.
    if (isServiceError(err))
      throw new CliError(
        err.code === 'INVALID_INPUT' ? err.message : `${err.message} (${where})`,
        err.code === 'INVALID_INPUT' ? EXIT.USAGE : EXIT.REFUSED,
      );
    throw err;
  }
}
