// `svc-a2a run`: serves every paired agent side by side over the live service until stopped or revoked.
import { createHostClient, HostApiError, openMessageStream } from '@screen-service/connect-api/client';
import { backoffDelay } from '@screen-service/io-kit/backoff';
import { type BridgeAgent, type BridgeOptions, createBridge } from '../bridge.js';
import { type AgentCardInfo, checkCardEndpoint, fetchAgentCard } from '../card.js';
import { BridgeError } from '../errors.js';
import { HostServiceLink } from '../host-link.js';
import { sleep } from '../sleep.js';
import type { AgentState } from '../state-file.js';
import type { BridgeHome } from './home.js';

/** Options of {@link runCommand}. */
export interface RunOptions {
  home: BridgeHome;
  /** Progress lines for the person watching. */
  out: (line: string) => void;
  signal: AbortSignal;
  fetch?: typeof fetch;
  /** Heartbeat period (ms, default 45 000; doc2 asks for one a minute at least). */
  heartbeatMs?: number;
  /** Wait before a card that could not be read is fetched again (ms, default 30 000). */
  cardRetryMs?: number;
  /** Engine settings (poll timing, webhook retries). */
  bridge?: Partial<Omit<BridgeOptions, 'link' | 'state' | 'outbox'>>;
}

/** Why `run` ended: stopped by the signal, or the connection was removed in the app. */
export type RunStop = 'stopped' | 'revoked';

/** A webhook agent has no card: this stands in for one so the engine can name it. */
export function webhookCard(name: string, url: string): AgentCardInfo {
  return {
    cardUrl: url,
    name,
    description: '',
    protocolVersion: '1.0',
    versionHeader: '1.0',
    endpoint: url,
    streaming: false,
    skills: [],
    extensions: [],
    graphFramework: false,
  };
}

// While the service starts up (or restarts), `run` asks for its session again: 0.5 s, 1 s, 2 s ... at most 10 s.
const SESSION_BACKOFF = { baseMs: 500, maxMs: 10_000 };

const revokedError = (e: unknown) =>
  e instanceof HostApiError && (e.code === 'connector_revoked' || e.code === 'unauthorized');

/**
 * Runs the bridge: reads the session, heartbeats, follows the message stream, and runs each agent's
 * turns one at a time (agents side by side). Resolves when `signal` aborts (`stopped`) or when the
 * person removed this connection in the app (`revoked`).
 *
 * @example
 * ```ts
 * const stop = await runCommand({ home: openHome(dir), out: console.log, signal: controller.signal });
 * ```
 */
export async function runCommand(options: RunOptions): Promise<RunStop> {
  const { home, out } = options;
  const saved = await home.state.read();
  if (!saved.service) {
    throw new BridgeError(
      'NOT_PAIRED',
      'nothing to run: add an agent in the app and run svc-a2a pair <code> --card <url> first',
    );
  }
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal]);
  let revoked = false;
  const revoke = () => {
    revoked = true;
    stop.abort();
  };
  const client = createHostClient({
    url: saved.service.connectUrl,
    token: saved.service.token,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  // The session says which agents this connection still serves; the service may be starting up.
  let session: Awaited<ReturnType<typeof client.session>> | undefined;
  for (let attempt = 1; !signal.aborted; attempt++) {
    try {
      session = await client.session();
      break;
    } catch (error) {
      if (revokedError(error)) return 'revoked';
      if (error instanceof HostApiError && error.permanent) throw error;
      const delay = backoffDelay(SESSION_BACKOFF, attempt);
      out(`svc-a2a: the service is not answering (${(error as Error).message}); trying again in ${delay} ms`);
      await sleep(delay, signal);
    }
  }
  if (!session) return 'stopped';

  const link = new HostServiceLink({ client, state: home.state, log: (line) => out(`svc-a2a: ${line}`) });
  const serving = new Map<string, Promise<void>>();
  const missing = new Set<string>();
  let catchingUp = false;
  // Starts every agent of the state file the service lists and that is not served yet: at start, and
  // after each heartbeat (an agent paired or added beside a running bridge joins without a restart).
  const serveNew = async (agents: { id: string; handle: string; name: string }[]) => {
    home.state.forget();
    const served = new Map(agents.map((a) => [a.id, a]));
    for (const [id, a] of Object.entries((await home.state.read()).agents)) {
      if (serving.has(id) || signal.aborted) continue;
      const there = served.get(id);
      if (!there) {
        if (!missing.has(id))
          out(
            `svc-a2a: ${a.name ?? id} is not on the service any more (deleted in the app?); svc-a2a remove ${id}`,
          );
        missing.add(id);
        continue;
      }
      link.setHandle(id, there.handle);
      serving.set(id, serveAgent(id, a, there.handle));
    }
  };

  const bridge = createBridge({
    link,
    state: home.state,
    outbox: home.outbox,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...options.bridge,
    onError: (agentId, error) => {
      if (revokedError(error)) return revoke();
      out(`svc-a2a: ${agentId}: ${(error as Error).message} (the turn is kept and tried again)`);
    },
    onProgress: (_agentId, line) => out(`svc-a2a: ${line}`),
    onGiveUp: (agentId, error) =>
      out(
        `svc-a2a: ${agentId}: stopped after repeated failures (${(error as Error).message}); run again once fixed`,
      ),
  });

  async function serveAgent(agentId: string, a: AgentState, handle: string): Promise<void> {
    let agent: BridgeAgent | undefined;
    while (!agent && !signal.aborted) {
      if (a.kind === 'webhook') {
        agent = {
          agentId,
          card: webhookCard(a.name ?? 'Webhook', a.webhookUrl ?? ''),
          webhook: { url: a.webhookUrl ?? '', secret: a.webhookSecret ?? '', headers: a.headers ?? {} },
        };
        out(`svc-a2a:   ${a.name} (@${handle}): webhook ${a.webhookUrl}`);
        break;
      }
      try {
        const card = await fetchAgentCard(a.cardUrl ?? '', {
          headers: a.headers ?? {},
          ...(options.fetch ? { fetch: options.fetch } : {}),
        });
        // A card that moved its endpoint elsewhere since pair is not followed (issue 46): no retry either.
        try {
          checkCardEndpoint(card, a.endpointOrigin);
        } catch (error) {
          out(`svc-a2a: ${a.name ?? agentId}: ${(error as Error).message}; not serving it (pair it again)`);
          return;
        }
        agent = { agentId, card };
        out(
          `svc-a2a:   ${card.name} (@${handle}): A2A ${card.protocolVersion}, ${card.streaming ? 'streaming' : 'polled'}`,
        );
      } catch (error) {
        out(`svc-a2a: ${a.name ?? agentId}: ${(error as Error).message}; trying again in a while`);
        await sleep(options.cardRetryMs ?? 30_000, signal);
      }
    }
    if (agent) await bridge.run([agent], signal);
  }

  const beat = setInterval(
    () => {
      client
        .heartbeat()
        .then(({ agents }) => serveNew(agents))
        .catch((error) => {
          if (revokedError(error)) revoke();
          else out(`svc-a2a: heartbeat failed (${(error as Error).message})`);
        });
    },
    Math.min(options.heartbeatMs ?? 45_000, 60_000),
  );
  try {
    await client.heartbeat();
    await serveNew(session.agents);
    out(
      `svc-a2a: serving ${serving.size} agent(s) for the connection "${session.connector.name}" at ${saved.service.connectUrl}`,
    );
    const stream = openMessageStream({
      connectUrl: client.connectUrl,
      token: saved.service.token,
      signal,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      onMessage: (m) => {
        link.accept(m);
        // A row for an agent paired beside this run: pick it up now rather than at the next heartbeat.
        if (!serving.has(m.agent.id) && !missing.has(m.agent.id) && !catchingUp) {
          catchingUp = true;
          client
            .session()
            .then((s) => serveNew(s.agents))
            .catch((error) => out(`svc-a2a: could not read the session (${(error as Error).message})`))
            .finally(() => {
              catchingUp = false;
            });
        }
      },
      onRetry: (error, ms) =>
        out(
          `svc-a2a: the message stream dropped (${(error as Error).message}); reconnecting in ${Math.round(ms)} ms`,
        ),
    });
    await stream.done.then(
      (why) => {
        if (why === 'revoked') revoke();
      },
      (error) => {
        if (revokedError(error)) revoke();
        else out(`svc-a2a: the message stream stopped: ${(error as Error).message}`);
      },
    );
    stop.abort();
    await Promise.all(serving.values());
  } catch (error) {
    if (!revokedError(error)) throw error;
    revoked = true;
  } finally {
    clearInterval(beat);
    stop.abort();
  }
  return revoked ? 'revoked' : 'stopped';
}
