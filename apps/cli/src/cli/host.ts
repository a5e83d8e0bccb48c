// `svc host pair|add|session|run-echo`: try a host from a terminal, no code. Thin over the client library
// (@screen-service/connect-api/client); the service can be any Screen Service reachable over HTTP.
import os from 'node:os';
import path from 'node:path';
import {
  createHostClient,
  HostApiError,
  type HostTurn,
  readHostState,
  runHost,
  writeHostState,
} from '@screen-service/connect-api/client';
import { CliError, EXIT } from './commands.js';

export const HOST_HELP = `svc host: run a host (a machine that serves agents) against a Screen Service

Usage:
  svc host pair --code CODE [--url URL] [--profile NAME] [--host-name H] [--state FILE]
      claims a 6-digit code (add an agent in the app to get one) for profile NAME (default "echo"),
      and keeps {token, connector_id, name} in FILE (mode 0600)
  svc host add --profile NAME [--name N] [--state FILE]
      registers another profile of this host as an agent (no code needed)
  svc host session [--state FILE]
      prints the host's agents, their looks and the transport addresses
  svc host run-echo [--state FILE] [--delay-ms N]
      serves every profile as an echo agent: prints each message it receives (one JSON line each) and
      answers it; a tap is answered with what was tapped. Ctrl-C stops it. It reports a client-safe
      sandbox (no terminal, files, reach or memory), so \`svc share\` can share it.

Defaults: --url $SVC_BASE_URL or http://localhost:8787; --state ~/.svc-host.json.
Exit codes: 0 done, 1 unexpected failure, 2 usage error, 3 refused by the service (bad code, revoked host).`;

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

export interface HostCommandInput {
  sub: string | undefined;
  values: Record<string, string | boolean | undefined>;
  baseUrl: string;
  io: Out;
  signal?: AbortSignal;
}

function statePath(values: HostCommandInput['values']): string {
  const given = values.state;
  return typeof given === 'string' ? path.resolve(given) : path.join(os.homedir(), '.svc-host.json');
}

function need(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new CliError(`${flag} is required.\n\n${HOST_HELP}`, EXIT.USAGE);
  }
  return value.trim();
}

async function paired(values: HostCommandInput['values']) {
  const file = statePath(values);
  const state = await readHostState(file);
  if (!state)
    throw new CliError(`No host state at ${file}: run \`svc host pair --code CODE\` first.`, EXIT.USAGE);
  return { file, state, client: createHostClient({ url: state.connect_url, token: state.token }) };
}

/**
 * The echo host's sandbox report (doc2 "Sandbox report"): it runs no terminal, touches no files, reaches
 * nothing else on the machine, remembers nothing between turns and calls no model, so every profile it
 * serves passes the five client-safe rules.
 */
export const ECHO_SANDBOX = Object.freeze({
  terminal: 'off',
  files: 'off',
  reach: [] as string[],
  memory: 'off',
  runner: 'api',
  profile: 'own',
  extra_keys: 0,
});

/** What the echo host answers to a turn. */
export function echoAnswer(turn: HostTurn): string {
  return turn.rows
    .map((r) => (r.kind === 'tap' ? `You tapped: ${r.text.split('\n')[0]}` : `echo: ${r.text}`))
    .join('\n');
}

/** Runs one `svc host` subcommand; resolves to the exit code. */
export async function hostCommand(input: HostCommandInput): Promise<number> {
  const { sub, values, io } = input;
  try {
    switch (sub) {
      case 'pair': {
        const file = statePath(values);
        const url = typeof values.url === 'string' ? values.url : input.baseUrl;
        const existing = await readHostState(file);
        const client = createHostClient({
          url,
          ...(existing && existing.connect_url === createHostClient({ url }).connectUrl
            ? { token: existing.token }
            : {}),
        });
        const result = await client.pair({
          code: need(values.code, '--code').replace(/\s+/g, ''),
          remote_ref: typeof values.profile === 'string' ? values.profile : 'echo',
          host_name: typeof values['host-name'] === 'string' ? values['host-name'] : os.hostname(),
        });
        if (result.connector_token) {
          await writeHostState(file, {
            token: result.connector_token,
            connector_id: result.connector.id,
            name: result.connector.name,
            connect_url: client.connectUrl,
          });
        }
        io.stdout(
          `${JSON.stringify({ state: file, connector: result.connector, agent: result.agent }, null, 2)}\n`,
        );
        return EXIT.OK;
      }
      case 'add': {
        const { client } = await paired(values);
        const r = await client.add({
          remote_ref: need(values.profile, '--profile'),
          ...(typeof values.name === 'string' ? { name: values.name } : {}),
        });
        io.stdout(`${JSON.stringify(r, null, 2)}\n`);
        return EXIT.OK;
      }
      case 'session': {
        const { client } = await paired(values);
        io.stdout(`${JSON.stringify(await client.session(), null, 2)}\n`);
        return EXIT.OK;
      }
      case 'run-echo': {
        const { file } = await paired(values);
        const delay = typeof values['delay-ms'] === 'string' ? Number(values['delay-ms']) : 0;
        if (!Number.isInteger(delay) || delay < 0)
          throw new CliError('--delay-ms must be a whole number.', EXIT.USAGE);
        const host = await runHost({
          statePath: file,
          ...(input.signal ? { signal: input.signal } : {}),
          log: (line) => io.stderr(`svc host: ${line}\n`),
          commands: () => [{ name: 'echo', description: 'Repeats what you send' }],
          sandbox: () => ECHO_SANDBOX,
          async handleTurn(turn, ctx) {
            for (const r of turn.rows) io.stdout(`${JSON.stringify(r)}\n`);
            if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
            const written = await ctx.reply({ text: echoAnswer(turn) });
            io.stdout(`${JSON.stringify({ answered: turn.rows.map((r) => r.id), ...written })}\n`);
          },
        });
        io.stderr(
          `svc host: serving ${(await host.client.session()).agents.length} agent(s); Ctrl-C stops.\n`,
        );
        const stop = await host.done;
        if (stop === 'revoked') {
          io.stderr('svc host: this host was removed in the app; pair again.\n');
          return EXIT.REFUSED;
        }
        io.stderr('svc host: stopped.\n');
        return EXIT.OK;
      }
      default:
        throw new CliError(
          `Unknown command "host ${sub}". Run \`svc host --help\` for the list.`,
          EXIT.USAGE,
        );
    }
  } catch (err) {
    if (err instanceof HostApiError) {
      throw new CliError(
        `${err.message} (${err.code})`,
        err.permanent || err.code === 'STATE_FILE' ? EXIT.REFUSED : EXIT.FAILURE,
      );
    }
    throw err;
  }
}
