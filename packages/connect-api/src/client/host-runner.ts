// Runs a host: heartbeats (≤ 60 s) with sandbox reports, commands reported only when they change, the
// message stream, one turn at a time per agent (rows that arrive meanwhile form the next turn), answers
// with idempotency keys fixed by the turn's rows, and a cursor saved only once a turn is answered. Before a
// turn for anyone but the owner the profile's report is checked again (doc2 "Client-safe").

import type { HostMessage, ReplyResult } from '@screen-service/core/host-messages';
import {
  checkClientSafe,
  type HeartbeatResult,
  type SandboxReport,
  SHARE_WHY_TEXT,
  type ShareWhy,
} from '@screen-service/registry/hosts';
import type { CommandEntry } from '@screen-service/registry/model';
import { HostApiError } from './errors.js';
import { createHostClient, type HostClient } from './host-client.js';
import { type MessageStream, openMessageStream, type StreamStop } from './message-stream.js';
import { readHostState, writeHostState } from './state-file.js';
import { type HostTool, hostTablesTool } from './tables-tool.js';

/** One turn: the rows the person sent to one agent since its last answer. */
export interface HostTurn {
  agent: HostMessage['agent'];
  session: string;
  rows: HostMessage[];
}

/** What a turn handler answers with. */
export interface TurnReply {
  text?: string;
  lines?: string;
}

export interface TurnContext {
  /** Writes one answer; every answer of a turn but the last should pass `done: false`. */
  reply(answer: TurnReply & { done?: boolean }): Promise<ReplyResult>;
  /**
   * The service's tools for this turn's model, bound to its agent and thread: `svc_tables` (doc3). Hand
   * them to the framework's tool list as they are (name, description, JSON Schema, `run`).
   */
  tools: HostTool[];
}

export interface HostRunOptions {
  /** The state file `svc host pair` wrote (`{token, connector_id, name, connect_url}`, mode 0600). */
  statePath: string;
  /** Answers a turn (call `ctx.reply` one or more times). A throw is logged and the turn retried later. */
  handleTurn(turn: HostTurn, ctx: TurnContext): Promise<void>;
  /** The commands each profile accepts (read at every heartbeat; sent only when changed). */
  commands?: (remoteRef: string) => CommandEntry[] | null | undefined;
  /** Each profile's sandbox report (sent with every heartbeat). */
  sandbox?: (remoteRef: string) => Record<string, unknown> | undefined;
  /** Heartbeat period (ms); default 45 s, never more than 60 s (doc2). */
  heartbeatEveryMs?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
  fetch?: typeof fetch;
  /** Called after every heartbeat answer (the host learns which profiles are registered). */
  onHeartbeat?: (result: HeartbeatResult) => void;
}

export interface RunningHost {
  client: HostClient;
  stream: MessageStream;
  /** Resolves when the stream stops (aborted, or `revoked`); heartbeats stop with it. */
  done: Promise<StreamStop>;
  /** Sends a heartbeat now (say, after the profile changed); paused shared turns run once it passes. */
  heartbeat(): Promise<HeartbeatResult>;
}

/**
 * doc2 "Client-safe": the rules a profile breaks right now, read from its report (`no_report` without one).
 * A turn for someone the owner shares with runs only when this is empty.
 */
export function brokenNow(options: Pick<HostRunOptions, 'sandbox'>, remoteRef: string | null): ShareWhy[] {
  const report = remoteRef === null ? undefined : options.sandbox?.(remoteRef);
  return report ? checkClientSafe(report as SandboxReport).broken : ['no_report'];
}

/** The owner's card when a shared thread's turn did not run: which rule broke, and what happens next. */
export function pausedCard(agentName: string, broken: ShareWhy[]): { text: string; lines: string } {
  const rules = broken.map((w) => `**${w}** (${SHARE_WHY_TEXT[w]})`).join(', ');
  return {
    text: `${agentName} is paused for the people you share it with: it broke ${broken.join(', ')}.`,
    lines: [
      'group card "Paused for the people you share it with"',
      `text A turn for someone you share ${agentName} with did not run: its profile broke ${rules}.`,
      'text Fix the profile: sharing resumes at the next heartbeat that passes, and their waiting messages are answered then.',
      'end',
    ].join('\n'),
  };
}

/** Heartbeat period: doc2 asks for at least one a minute. */
export const DEFAULT_HEARTBEAT_MS = 45_000;

/**
 * doc2 "Client-safe", before a turn for someone the owner shares with: a profile that breaks a rule now
 * stops the turn, a heartbeat goes at once (the service clears `client_safe`, the person sees the agent
 * paused by its owner), and the owner's thread gets a card naming the rule. True when the turn must wait.
 */
async function pausedForClients(
  turn: HostTurn,
  gate: {
    options: HostRunOptions;
    beat: () => Promise<unknown>;
    client: HostClient;
    names: Map<string, string>;
    log: (line: string) => void;
  },
): Promise<boolean> {
  const broken = brokenNow(gate.options, turn.agent.remote_ref);
  if (broken.length === 0) return false;
  gate.log(`turn for ${turn.session} waits: ${turn.agent.handle} broke ${broken.join(', ')}`);
  await gate.beat();
  await gate.client.reply({
    agent_id: turn.agent.id,
    idempotency_key: `paused.${turn.rows[0]!.id}`,
    ...pausedCard(gate.names.get(turn.agent.id) ?? turn.agent.handle, broken),
  });
  return true;
}

/**
 * The host's heartbeat: each profile's sandbox report rides along, the commands go only when they change,
 * and each agent's name is kept (the owner's card names the agent as the app shows it).
 */
function heartbeats(client: HostClient, options: HostRunOptions) {
  const sentCommands = new Map<string, string>();
  let knownRefs: string[] = [];
  const names = new Map<string, string>();

  async function beat() {
    const refs = knownRefs;
    const reports: Record<string, unknown> = {};
    for (const ref of refs) {
      const r = options.sandbox?.(ref);
      if (r) reports[ref] = r;
    }
    const hb = await client.heartbeat(Object.keys(reports).length > 0 ? reports : undefined);
    knownRefs = hb.agents.map((a) => a.remote_ref).filter((r): r is string => r !== null);
    for (const a of hb.agents) names.set(a.id, a.name);
    options.onHeartbeat?.(hb);
    for (const ref of knownRefs) {
      const list = options.commands?.(ref);
      if (list === undefined) continue;
      const text = JSON.stringify(list);
      if (sentCommands.get(ref) === text) continue;
      await client.commands(ref, list);
      sentCommands.set(ref, text);
    }
    return hb;
  }
  return { beat, names, known: () => knownRefs.length };
}

/**
 * @example
 * ```ts
 * const host = await runHost({
 *   statePath: '/home/me/.svc-host.json',
 *   handleTurn: async (turn, ctx) => { await ctx.reply({ text: `You said: ${turn.rows.map((r) => r.text).join(' / ')}` }); },
 * });
 * await host.done;
 * ```
 */
export async function runHost(options: HostRunOptions): Promise<RunningHost> {
  const log = options.log ?? (() => {});
  const state = await readHostState(options.statePath);
  if (!state) throw new HostApiError(0, 'NOT_PAIRED', `No host state at ${options.statePath}: pair first.`);
  const client = createHostClient({
    url: state.connect_url,
    token: state.token,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const every = Math.min(options.heartbeatEveryMs ?? DEFAULT_HEARTBEAT_MS, 60_000);
  const { beat, names, known } = heartbeats(client, options);
  await beat();
  // A second beat right away when the first learned the profiles, so their reports ride along.
  if (options.sandbox && known() > 0) await beat();
  // One beat at a time: on a slow link a tick that finds the last beat still running skips, so a changed
  // commands list is never reported twice by two overlapping beats.
  let beating = false;
  const timer = setInterval(() => {
    if (beating) return;
    beating = true;
    beatAndResume()
      .catch((err) => log(`heartbeat failed: ${(err as Error).message}`))
      .finally(() => {
        beating = false;
      });
  }, every);

  // Rows handed on but not yet answered; the saved cursor stays below the oldest of them.
  const pending = new Map<number, HostMessage>();
  const waiting = new Map<string, HostMessage[]>();
  const busy = new Set<string>();
  let savedCursor = state.cursor ?? 0;
  let saving = Promise.resolve();
  const saveCursor = (streamCursor: number) => {
    const oldest = Math.min(...pending.keys());
    const next = pending.size > 0 ? oldest - 1 : streamCursor;
    if (next <= savedCursor) return;
    savedCursor = next;
    saving = saving
      .then(() => writeHostState(options.statePath, { ...state, cursor: next }))
      .catch((err) => log(`could not save the cursor: ${(err as Error).message}`));
  };

  // Shared threads whose profile broke a rule: their rows wait (still pending) for a beat that passes.
  const parked = new Map<string, HostMessage[]>();
  async function beatAndResume(): Promise<HeartbeatResult> {
    const hb = await beat();
    for (const [session, rows] of parked) {
      if (brokenNow(options, rows[0]!.agent.remote_ref).length > 0) continue;
      parked.delete(session);
      waiting.set(session, [...rows, ...(waiting.get(session) ?? [])]);
      void runTurns(session);
    }
    return hb;
  }
  const gate = { options, beat, client, names, log };

  // One turn at a time per thread: the owner's (`<agent_id>`) and each holder's (`<agent_id>~<user_id>`).
  async function runTurns(session: string) {
    if (busy.has(session)) return;
    busy.add(session);
    try {
      for (;;) {
        const rows = waiting.get(session)?.splice(0) ?? [];
        if (rows.length === 0) break;
        const agentId = rows[0]!.agent.id;
        const ids = rows.map((r) => r.id);
        let n = 0;
        const turn: HostTurn = { agent: rows[0]!.agent, session: rows[0]!.session, rows };
        try {
          if (session !== agentId && (await pausedForClients(turn, gate))) {
            parked.set(session, [...(parked.get(session) ?? []), ...rows]);
            continue;
          }
          await client.turn(agentId, ids, session);
          await options.handleTurn(turn, {
            tools: [hostTablesTool(client, { agent: agentId, session })],
            reply: (answer) =>
              client.reply({
                agent_id: agentId,
                session,
                // Fixed by the rows the turn carries: a rerun after a crash writes each answer once.
                idempotency_key: `turn.${ids[0]}.${ids[ids.length - 1]}.${n++}`,
                ...(answer.text !== undefined ? { text: answer.text } : {}),
                ...(answer.lines !== undefined ? { lines: answer.lines } : {}),
                turn: ids,
                ...(answer.done === false ? { done: false } : {}),
              }),
          });
          for (const r of rows) pending.delete(r.seq);
          saveCursor(stream.cursor());
        } catch (err) {
          log(`turn for ${agentId} failed: ${(err as Error).message}`);
          if (err instanceof HostApiError && err.permanent) {
            // A refusal will not change on retry: the rows stay unhandled for the next run to see.
            for (const r of rows) pending.delete(r.seq);
            break;
          }
          waiting.set(session, [...rows, ...(waiting.get(session) ?? [])]);
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    } finally {
      busy.delete(session);
    }
  }

  const stream = openMessageStream({
    connectUrl: client.connectUrl,
    token: state.token,
    after: savedCursor,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    onRetry: (err, ms) => log(`stream dropped (${(err as Error).message}); retrying in ${Math.round(ms)} ms`),
    onMessage(m) {
      // Sent again (a parked row, once the agent passes): it is already here.
      if (pending.has(m.seq)) return;
      pending.set(m.seq, m);
      const list = waiting.get(m.session) ?? [];
      list.push(m);
      waiting.set(m.session, list);
      // Let rows that arrive together form one turn.
      queueMicrotask(() => void runTurns(m.session));
    },
  });
  const done = stream.done.finally(async () => {
    clearInterval(timer);
    await saving;
  });
  return { client, stream, done, heartbeat: beatAndResume };
}
