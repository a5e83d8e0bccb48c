// `svc`: the operator CLI. Parses arguments, runs one command, and turns errors into exit codes.
import os from 'node:os';
import { UsageError } from '@screen-service/io-kit/command-line';
import { ConfigError, loadConfig, type ServerConfig, serveUntilStopped } from '@screen-service/server';
import { CliError, connect, EXIT, userAdd } from './cli/commands.js';
import { HOST_HELP, hostCommand } from './cli/host.js';
import { backupCommand, doctorCommand, OPERATE_HELP, restoreCommand } from './cli/operate.js';
import { type OptionSpec, parseOptions } from './cli/options.js';
import { readPassword } from './cli/read-password.js';
import { receiptsCommand } from './cli/receipts.js';
import { relayCommand } from './cli/relay.js';
import { SHARE_HELP, shareCommand } from './cli/share.js';

const HELP: Record<string, string> = {
  main: `svc: run and administer a Screen Service

Usage: svc <command> [options]

Commands:
  serve                                       start the server (same as npm start)
  user add --email E [--password P]           create an account (password from stdin when omitted)
  connect --email E --agent NAME [--host-name H]
                                              create an agent, pair it, print {mcp_url, connector_token, agent}
  host pair|add|session|run-echo ...          run a host from this terminal (svc host --help)
  share safe|template|grant|revoke|list|plan|send ...
                                              share client-safe agents with other people (svc share --help)
  relay [options] -- <server command...>      wrap any MCP server; its questions (elicitations) come to
                                              your phone (svc relay --help)
  receipts verify FILE --keys JWKS | rotate-key
                                              check exported answer receipts offline; rotate the signing key
  backup FILE [--without-secret]              archive the database (online) and every data file
  restore FILE                                restore an archive (refused while the service runs)
  doctor                                      check this deployment and say what to fix

Options everywhere: --help. Environment: PORT, HOST, SVC_BASE_URL, SVC_DATA_DIR, LOG_LEVEL, SVC_SECRET,
SVC_DATABASE_URL (PostgreSQL: every command works on that database; backup/restore name pg_dump/pg_restore).
Data: SVC_DATA_DIR, else <repository root>/data wherever you run svc (outside the repository: the
per-user data folder, e.g. ~/.local/share/screen-service).
Exit codes: 0 done, 1 unexpected failure, 2 usage or configuration error (e.g. an unknown option, a
PORT in use), 3 refused (e.g. email taken, a data folder another server is serving).`,
  serve: `svc serve [--port N] [--host H] [--data-dir DIR]

Starts the server (defaults from the environment: PORT 8787, HOST 0.0.0.0, SVC_DATA_DIR
<repository root>/data). Stop it with Ctrl-C: in-flight requests finish, waiting calls are told to call
again, the database closes and it logs "stopped" (a third Ctrl-C stops it at once). It is the same server
as \`npm start\`: run one or the other, one per data folder.
Exit codes: 0 stopped, 1 failed, 2 PORT in use or not allowed, data folder not writable, 3 another
server is serving the data folder (its pid and address are named).`,
  user: `svc user add --email E [--password P]

Creates an account. Without --password the password is read from stdin (one line), so it stays out of
your shell history: printf '%s\\n' "$PW" | svc user add --email you@example.com`,
  connect: `svc connect --email E --agent NAME [--host-name H]

Creates an agent named NAME in the account E, pairs it as an MCP connection from host H (default: this
machine's name), and prints JSON {"mcp_url", "connector_token", "agent"}. The token is shown once:
configure your MCP client with URL mcp_url and header "Authorization: Bearer <connector_token>".`,
};

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };
/** The server's settings from the environment (the server's config module checks it), with the options' overrides. */
type Config = (overrides?: Partial<ServerConfig>) => ServerConfig;

/**
 * Runs the CLI; resolves to the exit code (never calls process.exit itself, except via `serve`'s signals).
 * `env` is read only through the server's `loadConfig`, which checks every variable.
 */
export async function runCli(
  argv: string[],
  io: Out = defaultIo,
  stdin: NodeJS.ReadableStream = process.stdin,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const [command, ...rest] = argv;
  const config: Config = (overrides = {}) => {
    // A --port moves the default base URL with it (unless SVC_BASE_URL names one): it is the PORT setting.
    const port = overrides.port === undefined ? {} : { PORT: String(overrides.port) };
    return { ...loadConfig({ ...env, ...port }), ...overrides };
  };
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.stdout(`${HELP.main}\n`);
      return command === undefined ? EXIT.USAGE : EXIT.OK;
    }
    switch (command) {
      case 'serve':
        return await serve(rest, io, config);
      case 'user':
        return await user(rest, io, stdin, config);
      case 'connect':
        return await connectCommand(rest, io, config);
      case 'host':
        return await host(rest, io, config);
      case 'share':
        if (rest.length === 0) {
          io.stdout(`${SHARE_HELP}\n`);
          return EXIT.USAGE;
        }
        return await shareCommand(rest, () => config(), io);
      case 'receipts':
        return await receiptsCommand(rest, () => config(), io);
      case 'relay':
        // Its own settings (--service, --token-file, SVC_RELAY_*): it talks to a service, it runs none.
        return await relayCommand(rest, io, env);
      case 'backup':
      case 'restore':
      case 'doctor':
        return await operate(command, rest, io, config);
      default:
        throw new CliError(`Unknown command "${command}". Run \`svc --help\` for the list.`, EXIT.USAGE);
    }
  } catch (err) {
    if (err instanceof CliError || err instanceof UsageError) {
      io.stderr(`svc: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof ConfigError) {
      io.stderr(`svc: invalid configuration: ${err.message}\n`);
      return EXIT.USAGE;
    }
    io.stderr(`svc: failed: ${(err as Error).stack ?? String(err)}\n`);
    return EXIT.FAILURE;
  }
}

const defaultIo: Out = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
};

function required(value: string | boolean | undefined, flag: string, help: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new CliError(`${flag} is required.\n\n${help}`, EXIT.USAGE);
  return value;
}

async function serve(argv: string[], io: Out, config: Config): Promise<number> {
  const { values } = parseOptions(
    argv,
    { port: { type: 'string' }, host: { type: 'string' }, 'data-dir': { type: 'string' } },
    'svc serve',
  );
  if (values.help) {
    io.stdout(`${HELP.serve}\n`);
    return EXIT.OK;
  }
  const overrides: Partial<ServerConfig> = {};
  if (values.port !== undefined) {
    if (!/^\d+$/.test(values.port) || Number(values.port) > 65535)
      throw new CliError('--port must be a whole number from 0 to 65535.', EXIT.USAGE);
    overrides.port = Number(values.port);
  }
  if (values.host !== undefined) overrides.host = values.host;
  if (values['data-dir'] !== undefined)
    overrides.dataDir = (await import('node:path')).resolve(values['data-dir']);
  const c = config(overrides);
  // The same runner as `npm start`: the same port-clash message and the same shutdown log lines.
  return await serveUntilStopped(c, { stderr: io.stderr });
}

async function user(argv: string[], io: Out, stdin: NodeJS.ReadableStream, config: Config): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    io.stdout(`${HELP.user}\n`);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (sub !== 'add')
    throw new CliError(`Unknown command "user ${sub}". Did you mean \`svc user add\`?`, EXIT.USAGE);
  const { values } = parseOptions(
    rest,
    { email: { type: 'string' }, password: { type: 'string' } },
    'svc user add',
  );
  if (values.help) {
    io.stdout(`${HELP.user}\n`);
    return EXIT.OK;
  }
  const email = required(values.email, '--email', HELP.user!);
  const password = values.password ?? (await readPassword(stdin, io.stderr));
  const created = await userAdd(config(), { email, password });
  io.stdout(`${JSON.stringify(created)}\n`);
  return EXIT.OK;
}

async function host(argv: string[], io: Out, config: Config): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(`${HOST_HELP}\n`);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  const { values } = parseOptions(
    rest,
    {
      url: { type: 'string' },
      code: { type: 'string' },
      profile: { type: 'string' },
      'host-name': { type: 'string' },
      state: { type: 'string' },
      name: { type: 'string' },
      'delay-ms': { type: 'string' },
    },
    `svc host ${sub}`,
  );
  if (values.help) {
    io.stdout(`${HOST_HELP}\n`);
    return EXIT.OK;
  }
  if (!['pair', 'add', 'session', 'run-echo'].includes(sub)) {
    throw new CliError(`Unknown command "host ${sub}". Run \`svc host --help\` for the list.`, EXIT.USAGE);
  }
  const stop = new AbortController();
  // `on`, not `once`, and kept until the process exits: under npx one Ctrl-C arrives twice (from the
  // terminal and from npm), and with no listener left the second copy would kill the host before it says
  // it stopped. Aborting twice is harmless.
  const abort = () => stop.abort();
  process.on('SIGINT', abort);
  process.on('SIGTERM', abort);
  return await hostCommand({ sub, values, baseUrl: config().baseUrl, io, signal: stop.signal });
}

async function operate(
  command: 'backup' | 'restore' | 'doctor',
  argv: string[],
  io: Out,
  config: Config,
): Promise<number> {
  const flags: OptionSpec = command === 'backup' ? { 'without-secret': { type: 'boolean' } } : {};
  const { values, positionals } = parseOptions(argv, flags, `svc ${command}`);
  if (values.help) {
    io.stdout(`${OPERATE_HELP[command]}\n`);
    return EXIT.OK;
  }
  if (command === 'doctor') return await doctorCommand(config(), io);
  const file = required(positionals[0], 'A file', OPERATE_HELP[command]);
  if (command === 'restore') return await restoreCommand(config(), file, io);
  const withoutSecret = (values as Record<string, unknown>)['without-secret'] === true;
  return await backupCommand(config(), file, io, withoutSecret);
}

async function connectCommand(argv: string[], io: Out, config: Config): Promise<number> {
  const { values } = parseOptions(
    argv,
    { email: { type: 'string' }, agent: { type: 'string' }, 'host-name': { type: 'string' } },
    'svc connect',
  );
  if (values.help) {
    io.stdout(`${HELP.connect}\n`);
    return EXIT.OK;
  }
  const out = await connect(config(), {
    email: required(values.email, '--email', HELP.connect!),
    agent: required(values.agent, '--agent', HELP.connect!),
    hostName: values['host-name'] ?? os.hostname(),
  });
  io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  return EXIT.OK;
}
