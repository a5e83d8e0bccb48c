// `svc relay` / `svc-relay`: the command line read into options, the transports built, the relay run to its end.
import fs from 'node:fs';
import http from 'node:http';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { connect, createMcpTransport } from '@screen-service/agent';
import { type OptionSpecs, parseCommandLine, UsageError } from '@screen-service/io-kit/command-line';
import { readEnv, type StandardRule } from '@screen-service/io-kit/env';
import type { AnswerMode } from './answer-policy.js';
import { createFileJournal } from './journal.js';
import { createRelay } from './relay.js';
import { watchScreens } from './screen-watch.js';
import { stopStaleChild } from './stale-child.js';

/** The relay's help, printed by `--help`. */
export const RELAY_HELP = `svc relay: bring any MCP server's questions (elicitations) to your phone

Usage:
  svc relay [options] -- <server command> [args...]     wrap a stdio server
  svc relay [options] --url <https://.../mcp> [--header "Name: value"]...
                                                      wrap a Streamable HTTP server

The relay serves the wrapped server unchanged to your MCP client over stdio (or, with --http PORT, over
Streamable HTTP at http://127.0.0.1:PORT/mcp). When the server asks the user something (elicitation/create
in form or URL mode, or a 2026-07-28 input_required result), the question becomes a screen in the thread of
your agent on Screen Service; your answer (accept, decline or cancel) goes back to the server once, checked
against the server's schema first. Forms asking for passwords, tokens or keys are declined (URL mode only).

Options:
  --service URL        the Screen Service tool server, <base>/functions/v1/svc-mcp (env SVC_RELAY_SERVICE)
  --token-file FILE    a file holding the agent's connection token, svc_ct_... from \`svc connect\`
                       (or env SVC_RELAY_TOKEN)
  --agent HANDLE       the agent to talk as (default: the connection's first; name it after the server)
  --name NAME          the server name you read on the phone (default: the server's own)
  --answer MODE        phone (default) | client-first | both
                       client-first: your client's own elicitation if it has one, the phone after
                       --client-wait seconds or when the client declines; both: both at once, the first
                       answer wins and the other is withdrawn
  --client-wait S      seconds the client has in client-first mode (default 60)
  --state FILE         where open questions and their screens are kept, so a restarted relay withdraws the
                       screens its last run left
  --http PORT          serve the client over Streamable HTTP on 127.0.0.1:PORT instead of stdio
  --url URL            wrap a Streamable HTTP server instead of a command
  --header "N: V"      a header for every request to --url (repeatable), e.g. "Authorization: Bearer ..."
  --help               this text

Example (a client's stdio entry):
  {"command": "npx", "args": ["svc", "relay", "--service", "https://svc.example/functions/v1/svc-mcp",
   "--token-file", "/home/me/.svc-relay-token", "--", "npx", "-y", "@modelcontextprotocol/server-everything"]}

Exit codes: 0 the client or the server closed, 2 usage error (the message names the option).`;

const OPTIONS = {
  service: { type: 'string' },
  'token-file': { type: 'string' },
  agent: { type: 'string' },
  name: { type: 'string' },
  answer: { type: 'string' },
  'client-wait': { type: 'string' },
  state: { type: 'string' },
  http: { type: 'string' },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
} as const satisfies OptionSpecs;

const text = (what: string): StandardRule<string> => ({
  '~standard': {
    version: 1,
    vendor: 'svc-relay',
    validate: (v) =>
      typeof v === 'string' && v.trim() !== ''
        ? { value: v.trim() }
        : { issues: [{ message: `must be ${what}` }] },
  },
});

/** What the relay's program is given by its entry. */
export interface RelayCliIo {
  /** The program's environment (read here once, and passed on to a wrapped command). */
  env: Readonly<Record<string, string | undefined>>;
  stderr: (s: string) => void;
  stdout: (s: string) => void;
  /** Ends the relay (Ctrl-C). */
  signal?: AbortSignal;
  /** The client's input on stdio; its end closes the relay. */
  stdin?: NodeJS.ReadableStream;
}

/** Exit codes: 0 closed, 1 failed, 2 usage. */
export const RELAY_EXIT = { OK: 0, FAILURE: 1, USAGE: 2 } as const;

function usage(message: string): never {
  throw new UsageError(`${message} See \`svc relay --help\`.`);
}

/** Reads the command line and environment into the relay's settings; throws UsageError naming what is wrong. */
export function readRelayArgs(argv: readonly string[], envIn: RelayCliIo['env']) {
  const cut = argv.indexOf('--');
  const own = cut < 0 ? [...argv] : argv.slice(0, cut);
  const command = cut < 0 ? [] : argv.slice(cut + 1);
  const { values, positionals } = parseCommandLine(own, {
    options: OPTIONS,
    words: {
      unknownOption: (given, closest, known) =>
        `unknown option ${given} for \`svc relay\`.${closest ? ` Did you mean ${closest}?` : ''} Its options: ${known.join(', ')}.`,
    },
  });
  if (values.help) return { help: true as const };
  if (positionals.length)
    usage(`Put the server command after --, as in: svc relay -- ${positionals.join(' ')}.`);
  const env = readEnv(envIn, {
    SVC_RELAY_SERVICE: text('the tool server URL'),
    SVC_RELAY_TOKEN: text('a connection token'),
  });
  const service = values.service ?? env.SVC_RELAY_SERVICE;
  if (!service || !/^https?:\/\//.test(service))
    usage(
      '--service (or SVC_RELAY_SERVICE) must be the tool server URL, http(s)://<host>/functions/v1/svc-mcp.',
    );
  let token = env.SVC_RELAY_TOKEN;
  if (values['token-file']) {
    try {
      token = fs.readFileSync(values['token-file'], 'utf8').trim();
    } catch (err) {
      usage(`--token-file ${values['token-file']} cannot be read (${(err as NodeJS.ErrnoException).code}).`);
    }
  }
  if (!token)
    usage('A connection token is needed: --token-file FILE or SVC_RELAY_TOKEN (from `svc connect`).');
  if (!!values.url === command.length > 0)
    usage(
      command.length
        ? 'Give either --url or a command after --, not both.'
        : 'Give the server to wrap: -- <command> or --url <url>.',
    );
  if (values.url && !/^https?:\/\//.test(values.url)) usage('--url must be an http(s) address.');
  const answer = (values.answer ?? 'phone') as AnswerMode;
  if (!['phone', 'client-first', 'both'].includes(answer))
    usage('--answer must be phone, client-first or both.');
  const clientWait = Number(values['client-wait'] ?? 60);
  if (!Number.isFinite(clientWait) || clientWait < 0 || clientWait > 86_400)
    usage('--client-wait must be a number of seconds from 0 to 86400.');
  const httpPort = values.http === undefined ? undefined : Number(values.http);
  if (httpPort !== undefined && (!Number.isInteger(httpPort) || httpPort < 0 || httpPort > 65535))
    usage('--http must be a port number from 0 to 65535.');
  const headers: Record<string, string> = {};
  for (const h of values.header ?? []) {
    const at = h.indexOf(':');
    if (at < 1) usage(`--header "${h}" must look like "Name: value".`);
    headers[h.slice(0, at).trim()] = h.slice(at + 1).trim();
  }
  return {
    help: false as const,
    service,
    token,
    agent: values.agent,
    name: values.name,
    answer,
    clientWait,
    state: values.state,
    httpPort,
    url: values.url,
    headers,
    command,
  };
}

/** Runs the relay until the client or the wrapped server closes; resolves to the exit code. */
export async function runRelayCli(argv: readonly string[], io: RelayCliIo): Promise<number> {
  let args: ReturnType<typeof readRelayArgs>;
  try {
    args = readRelayArgs(argv, io.env);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`svc relay: ${err.message}\n`);
      return RELAY_EXIT.USAGE;
    }
    throw err;
  }
  if (args.help) {
    io.stdout(`${RELAY_HELP}\n`);
    return RELAY_EXIT.OK;
  }
  const log = (line: string) => io.stderr(`svc relay: ${line}\n`);
  const journal = args.state ? createFileJournal(args.state) : undefined;
  stopStaleChild(journal?.takeStaleChild(), log);
  const server: Transport = args.url
    ? new StreamableHTTPClientTransport(new URL(args.url), { requestInit: { headers: args.headers } })
    : new StdioClientTransport({
        command: args.command[0] ?? '',
        args: args.command.slice(1),
        env: Object.fromEntries(
          Object.entries(io.env).filter((e): e is [string, string] => e[1] !== undefined),
        ),
        stderr: 'inherit',
      });
  const { client, listening } = await clientSide(args.httpPort, log);
  // The relay talks as the agent; its transport is watched so each ask's screen is written down (and a restart
  // withdraws what a killed run left).
  const screens = watchScreens(createMcpTransport({ url: args.service, token: args.token }));
  const svc = connect({
    url: args.service,
    token: args.token,
    transport: screens,
    ...(args.agent ? { agent: args.agent } : {}),
  });
  const relay = createRelay({
    client,
    server,
    svc,
    answer: args.answer,
    clientWaitSeconds: args.clientWait,
    log,
    ...(args.name ? { serverName: args.name } : {}),
    ...(journal ? { journal, screens } : {}),
  });
  io.signal?.addEventListener('abort', () => void relay.close(), { once: true });
  // The SDK's stdio server side does not close when its input ends; a client that closes the pipe gives the
  // relay a few seconds before killing it, which is when open asks must be withdrawn and the server stopped.
  if (args.httpPort === undefined) io.stdin?.once('end', () => void relay.close());
  try {
    await relay.start();
  } catch (err) {
    log(`could not start: ${(err as Error).message}`);
    await relay.close();
    listening?.close();
    return RELAY_EXIT.FAILURE;
  }
  if (server instanceof StdioClientTransport && server.pid !== null)
    journal?.setChild({ pid: server.pid, command: args.command });
  await relay.closed;
  journal?.setChild(undefined);
  listening?.close();
  return RELAY_EXIT.OK;
}

// The client's side: stdio, or one Streamable HTTP session on 127.0.0.1 (loopback only: the relay holds the
// person's token). A Host or Origin other than this address is refused, so a web page cannot reach it through
// DNS rebinding or a cross-origin request.
async function clientSide(port: number | undefined, log: (line: string) => void) {
  if (port === undefined) return { client: new StdioServerTransport() as Transport, listening: undefined };
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
  let allowed = new Set<string>();
  const listening = http.createServer((req, res) => {
    const origin = req.headers.origin;
    if (
      !allowed.has(req.headers.host ?? '') ||
      (origin !== undefined && !allowed.has(origin.replace(/^http:\/\//, '')))
    ) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Only this machine may use the relay.\n');
      return;
    }
    if (req.url !== '/mcp' && !req.url?.startsWith('/mcp?')) {
      res.writeHead(404).end();
      return;
    }
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => listening.listen(port, '127.0.0.1', resolve));
  const at = listening.address();
  const bound = typeof at === 'object' && at ? at.port : port;
  allowed = new Set([`127.0.0.1:${bound}`, `localhost:${bound}`]);
  log(`serving http://127.0.0.1:${bound}/mcp`);
  return { client: transport as Transport, listening };
}
