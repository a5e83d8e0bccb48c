// The svc-a2a command line: parses arguments, runs a command, turns errors into exit codes.
import { HostApiError } from '@screen-service/connect-api/client';
import { parseCommandLine, type UsageWords } from '@screen-service/io-kit/command-line';
import { readBridgeEnv } from './cli-env.js';
import { addCommand, dirArgument, pairCommand } from './commands/bind.js';
import { cardCommand } from './commands/card.js';
import { defaultHomeDir, openHome, UsageError } from './commands/home.js';
import { formatAgents, removeCommand } from './commands/list.js';
import { type RunOptions, runCommand } from './commands/run.js';
import { BridgeError } from './errors.js';

/** Where the CLI writes, what it reads, and the fetch it uses (tests pass their own). */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  fetch?: typeof fetch;
  /** `SVC_BASE_URL` (the service) and `SVC_A2A_HOME` (the bridge's folder) are read from here. */
  env?: Record<string, string | undefined>;
  /** Stops `run` (the bin wires SIGINT and SIGTERM to it). */
  signal?: AbortSignal;
  /** Engine settings for `run` (tests shorten the timings). */
  run?: Pick<RunOptions, 'heartbeatMs' | 'cardRetryMs' | 'bridge'>;
}

/** Exit codes: stable, documented in `--help` and the README. */
export const EXIT = { OK: 0, REFUSED: 1, USAGE: 2, SERVICE: 3 } as const;

/** Help text of `svc-a2a --help`. */
export const HELP = `svc-a2a: bring an A2A agent (protocol 1.0 or 0.3, JSON-RPC) or a webhook into Screen Service.

Usage:
  svc-a2a card <url> [--header "<name>: <value>"]...
      Prints what the agent says about itself: name, protocol version, endpoint, skills.
      <url> is the agent's address or its card; /.well-known/agent-card.json is added.
  svc-a2a pair <code> --card <url> [--header "<name>: <value>"]... [--name N] [--profile P]
      Binds the agent to the one you added in the app (it shows the 6-digit code). The first pair
      connects this machine; every agent the bridge serves shares that one connection. Headers (for
      example an API key) stay in the owner-only state file and are never printed. Prints where
      messages go; a card whose endpoint is on another address than the card is refused unless you
      confirm that address with --allow-endpoint <origin>.
  svc-a2a pair <code> --webhook <url> [--header ...] [--name N]
      The same for a webhook agent: each turn is a signed JSON POST to <url> (see the README). Prints
      the agent's signing secret once.
  svc-a2a add (--card <url> | --webhook <url>) [--header ...] [--name N] [--profile P]
      Another agent on this machine, no code; it appears in the app at once.
  svc-a2a run
      Serves every paired agent side by side until Ctrl-C (or until the connection is removed in the app).
  svc-a2a list
      The agents this machine serves (header values are never shown).
  svc-a2a remove <agent id | profile | name>
      Stops serving an agent (delete it in the app to remove it there).

Options: --url <service> (default $SVC_BASE_URL or http://localhost:8787) for pair;
         --dir <folder> (default $SVC_A2A_HOME or ~/.svc-a2a) holds state.json (0600) and outbox/.

Exit codes: 0 done, 1 the agent or its card refused (the message says why), 2 usage error,
            3 the service refused (a wrong or used code, the connection removed in the app).
`;

const HEADER_HINT = `--header needs "<name>: <value>", for example --header "Authorization: Bearer <key>"`;

function parseHeader(value: string): [string, string] {
  const colon = value.indexOf(':');
  if (colon <= 0) throw new UsageError(HEADER_HINT);
  return [value.slice(0, colon).trim(), value.slice(colon + 1).trim()];
}

const VALUE_FLAGS = ['card', 'webhook', 'name', 'profile', 'url', 'dir', 'allow-endpoint'] as const;
const OPTIONS = {
  header: { type: 'string', multiple: true },
  ...(Object.fromEntries(VALUE_FLAGS.map((f) => [f, { type: 'string' }])) as Record<
    (typeof VALUE_FLAGS)[number],
    { type: 'string' }
  >),
} as const;

// A misspelt option gets the closest real one and the whole list, so the fix needs no trip to --help.
const WORDS: Partial<UsageWords> = {
  unknownOption: (given, closest, known) =>
    `unknown option ${given}.${closest ? ` Did you mean ${closest}?` : ''} Options: ${known.join(', ')} (see svc-a2a --help)`,
  badValue: ({ option, kind, detail }) =>
    option === '--header' && kind === 'missing'
      ? HEADER_HINT
      : kind === 'missing'
        ? `${option} needs a value; see svc-a2a --help`
        : `${detail}; see svc-a2a --help`,
};

interface Parsed {
  positional: string[];
  headers: Record<string, string>;
  flags: Partial<Record<(typeof VALUE_FLAGS)[number], string>>;
  help: boolean;
}

function parseArgs(argv: string[]): Parsed {
  const { values, positionals } = parseCommandLine(argv, { options: OPTIONS, words: WORDS });
  const flags: Parsed['flags'] = {};
  for (const name of VALUE_FLAGS) {
    const value = values[name];
    if (value === '') throw new UsageError(`--${name} needs a value; see svc-a2a --help`);
    if (value !== undefined) flags[name] = value;
  }
  return {
    positional: positionals,
    headers: Object.fromEntries((values.header ?? []).map(parseHeader)),
    flags,
    help: values.help === true,
  };
}

function takesOne(rest: string[], what: string): string {
  if (rest.length !== 1) throw new UsageError(what);
  return rest[0]!;
}

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
    const { positional, headers, flags, help } = parseArgs(argv);
    if (help) {
      io.out(HELP);
      return EXIT.OK;
    }
    const [command, ...rest] = positional;
    if (command === undefined) {
      io.out(HELP);
      return EXIT.USAGE;
    }
    const env = readBridgeEnv(io.env ?? {});
    const home = openHome(flags.dir ?? env.SVC_A2A_HOME ?? defaultHomeDir());
    const fetchOpt = io.fetch ? { fetch: io.fetch } : {};
    const bind = {
      home,
      card: flags.card,
      webhook: flags.webhook,
      name: flags.name,
      profile: flags.profile,
      allowEndpoint: flags['allow-endpoint'],
      headers,
      dirFlag: flags.dir,
      ...fetchOpt,
    };
    switch (command) {
      case 'card':
        io.out(
          await cardCommand(
            takesOne(rest, 'card takes one URL, for example: svc-a2a card https://agent.example.com'),
            {
              headers,
              ...fetchOpt,
            },
          ),
        );
        return EXIT.OK;
      case 'pair': {
        const code = takesOne(
          rest,
          'pair takes the 6-digit code from the app: svc-a2a pair 123456 --card <url>',
        );
        const url = flags.url ?? env.SVC_BASE_URL ?? 'http://localhost:8787';
        io.out((await pairCommand(code, url, bind)).text);
        return EXIT.OK;
      }
      case 'add':
        if (rest.length > 0) throw new UsageError('add takes no code: svc-a2a add --card <url>');
        io.out((await addCommand(bind)).text);
        return EXIT.OK;
      case 'list':
        io.out(formatAgents(await home.state.read()));
        return EXIT.OK;
      case 'remove':
        io.out(
          await removeCommand(
            home,
            takesOne(rest, 'remove takes one agent: svc-a2a remove <agent id | profile>'),
          ),
        );
        return EXIT.OK;
      case 'run': {
        const stop = await runCommand({
          home,
          out: (line) => io.out(`${line}\n`),
          signal: io.signal ?? new AbortController().signal,
          ...fetchOpt,
          ...io.run,
        });
        if (stop === 'revoked') {
          io.err(
            `svc-a2a: this connection was removed in the app; pair again (svc-a2a pair <code> --card <url>${dirArgument(flags.dir)}).\n`,
          );
          return EXIT.SERVICE;
        }
        io.out('svc-a2a: stopped.\n');
        return EXIT.OK;
      }
      default:
        throw new UsageError(`unknown command "${command}"; see svc-a2a --help`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`svc-a2a: ${error.message}\n`);
      return EXIT.USAGE;
    }
    if (error instanceof BridgeError) {
      io.err(`svc-a2a: ${error.message} [${error.code}]\n`);
      return error.code === 'NOT_PAIRED' ? EXIT.USAGE : EXIT.REFUSED;
    }
    if (error instanceof HostApiError) {
      io.err(`svc-a2a: the service said: ${error.message} [${error.code}]\n`);
      return error.permanent ? EXIT.SERVICE : EXIT.REFUSED;
    }
    throw error;
  }
}
