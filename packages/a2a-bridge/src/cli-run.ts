// The svc-a2a command line: parses arguments, runs a command, turns errors into exit codes.
import { cardCommand } from './commands/card.js';
import { BridgeError } from './errors.js';

/** Where the CLI writes, and the fetch it uses (tests pass their own streams). */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  fetch?: typeof fetch;
}

/** Help text of `svc-a2a --help`. */
export const HELP = `svc-a2a: bring an A2A agent (protocol 1.0 or 0.3, JSON-RPC) into Screen Service.

Usage:
  svc-a2a card <url> [--header "<name>: <value>"]...
      Prints what the agent says about itself: name, protocol version, endpoint, skills.
      <url> is the agent's address or its card; /.well-known/agent-card.json is added.
  svc-a2a --help

Coming with the service side: pair <code> --card <url> [--header ...], add --card <url>, run.

Exit codes: 0 done, 1 the agent or its card refused (the message says why), 2 usage error.
`;

const LATER = new Set(['pair', 'add', 'run']);

function parseHeader(value: string | undefined): [string, string] {
  const colon = value?.indexOf(':') ?? -1;
  if (value === undefined || colon <= 0) {
    throw new UsageError(
      `--header needs "<name>: <value>", for example --header "Authorization: Bearer <key>"`,
    );
  }
  return [value.slice(0, colon).trim(), value.slice(colon + 1).trim()];
}

class UsageError extends Error {}

/**
 * Runs the CLI with the given arguments; resolves to the exit code.
 *
 * @example
 * ```ts
 * const code = await runCli(['card', 'http://127.0.0.1:4000'], { out: console.log, err: console.error });
 * ```
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const positional: string[] = [];
    const headers: Record<string, string> = {};
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i]!;
      if (arg === '--help' || arg === '-h') {
        io.out(HELP);
        return 0;
      }
      if (arg === '--header') {
        const [name, value] = parseHeader(argv[++i]);
        headers[name] = value;
      } else if (arg.startsWith('--header=')) {
        const [name, value] = parseHeader(arg.slice('--header='.length));
        headers[name] = value;
      } else if (arg.startsWith('-')) {
        throw new UsageError(`unknown option ${arg}; see svc-a2a --help`);
      } else positional.push(arg);
    }
    const [command, ...rest] = positional;
    if (command === undefined) {
      io.out(HELP);
      return 2;
    }
    if (command === 'card') {
      if (rest.length !== 1)
        throw new UsageError('card takes one URL, for example: svc-a2a card https://agent.example.com');
      io.out(await cardCommand(rest[0]!, { headers, ...(io.fetch ? { fetch: io.fetch } : {}) }));
      return 0;
    }
    if (LATER.has(command)) {
      throw new UsageError(
        `${command} is not in this version yet (it comes with the service side); card works now`,
      );
    }
    throw new UsageError(`unknown command "${command}"; see svc-a2a --help`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`svc-a2a: ${error.message}\n`);
      return 2;
    }
    if (error instanceof BridgeError) {
      io.err(`svc-a2a: ${error.message} [${error.code}]\n`);
      return 1;
    }
    throw error;
  }
}
