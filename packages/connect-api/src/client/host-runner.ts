// Runs a host: heartbeats (≤ 60 s) with sandbox reports, commands reported only when they change, the
// message stream, one turn at a time per agent (rows that arrive meanwhile form the next turn), answers
// with idempotency keys fixed by the turn's rows, and a cursor saved only once a turn is answered.

import type { HostMessage, ReplyResult } from '@screen-service/core/host-messages';
import type { HeartbeatResult } from '@screen-service/registry/hosts';
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
}

/** Heartbeat period: doc2 asks for at least one a minute. */
export const DEFAULT_HEARTBEAT_MS = 45_000;

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
  const sentCommands = new Map<string, string>();
  let knownRefs: string[] = [];

  async function beat() {
    const refs = knownRefs;
    const reports: Record<string, unknown> = {};
    for (const ref of refs) {
      const r = options.sandbox?.(ref);
      if (r) reports[ref] = r;
    }
    const hb = await client.heartbeat(Object.keys(reports).length > 0 ? reports : undefined);
    knownRefs = hb.agents.map((a) => a.remote_ref).filter((r): r is string => r !== null);
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
  await beat();
  // A second beat right away when the first learned the profiles, so their reports ride along.
  if (options.sandbox && knownRefs.length > 0) await beat();
  // One beat at a time: on a slow link a tick that finds the last beat still running skips, so a changed
  // commands list is never reported twice by two overlapping beats.
  let beating = false;
  const timer = setInterval(() => {
    if (beating) return;
    beating = true;
    beat()
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
  return { client, stream, done };
}
