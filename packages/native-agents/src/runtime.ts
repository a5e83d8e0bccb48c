// The native-agent runtime: one turn at a time per thread on the hosts' turn machinery (rows delivered,
// working row, answer with `meta.turn`, rows handled), replies through the tables call's reply path and
// Screen Lines validation, per-account limits, and a clear line in the thread when the model fails.

import type { Core } from '@screen-service/core';
import type { ReplyReadResult, ReplyTextResult } from '@screen-service/core/tables';
import { type ConnectionPrincipal, MAX_TURN_ROWS } from '@screen-service/registry/hosts';
import type { AgentRecord } from '@screen-service/registry/model';
import { parse } from '@screen-service/screen-lines';
import { ModelError } from './errors.js';
import type { ChatMessage, ModelClient } from './model-client.js';
import { buildMessages, SERVICE_LINE_PREFIX, splitScreen, systemPrompt } from './prompt.js';
import { TURN_LEASE_MS, type TurnLeases } from './turn-leases.js';
import { createLimits, type ModelLimits, type UsageMeter } from './usage.js';

/** Model calls one turn may make: the answer, plus at most two reads fed back (doc3). */
const MAX_CALLS_PER_TURN = 3;
/** Thread rows the model sees, newest last. */
const DEFAULT_HISTORY = 40;
/** Waits before trying a failed turn again, one per failure in a row (the last repeats). */
// A list of chosen steps the operator may replace (`retryMs`), not io-kit's back-off policy: the waits are
// picked (5 s, 15 s, a minute, then every 5 minutes), not grown from a base by a factor.
const DEFAULT_RETRY_MS = [5_000, 15_000, 60_000, 300_000];

/** What the runtime uses of the core. */
export type RuntimeCore = Pick<Core, 'store' | 'notifier' | 'hostTransport' | 'tables' | 'clock'> &
  Partial<Pick<Core, 'limits'>>;

export interface NativeRuntimeOptions {
  core: RuntimeCore;
  model: ModelClient;
  /** The channel guide text (`guide().text` of @screen-service/screen-lines). */
  guide: string;
  limits?: ModelLimits;
  usage?: UsageMeter;
  /** Rows of history per turn; default 40. */
  history?: number;
  /** Back-off after failed turns (ms); default 5 s, 15 s, 1 min, then every 5 min. */
  retryMs?: number[];
  /** Default setTimeout; returns a cancel function. */
  schedule?: (run: () => void, ms: number) => () => void;
  /** Unexpected errors (the turn is retried later). */
  onError?: (err: unknown, agentId: string) => void;
  /**
   * With several instances on one database: each turn runs under this agent's lease, so one instance of
   * all runs it (ADR 0227). An instance refused the lease looks again when it would lapse.
   */
  leases?: TurnLeases;
  /** This runtime's name in the leases; default a random one. */
  holder?: string;
  /** Lease length (renewed every third of it while a turn runs); default 60 s. */
  leaseMs?: number;
}

/** The running runtime. */
export interface NativeRuntime {
  /** Starts listening and runs the turns owed since the last stop. */
  start(): Promise<void>;
  stop(): void;
  /** Runs the agent's owed rows now (or right after its running turn). */
  kick(agentId: string, userId: string): void;
  /** Resolves when no turn is running or queued to run at once (tests). */
  idle(): Promise<void>;
}

interface ThreadRun {
  running: boolean;
  again: boolean;
  failures: number;
  cancel: (() => void) | null;
  /** Told to the model once, at the top of its next turn (refused writes, bad lines). */
  notes: string[];
}

/** The connection principal of the service's own runner of this agent. */
export function nativePrincipal(agent: AgentRecord): ConnectionPrincipal {
  return {
    userId: agent.userId,
    connectorId: agent.connectorId!,
    connectorKind: 'hosted',
    via: 'connector_token',
  };
}

/**
 * @example
 * ```ts
 * const runtime = createNativeRuntime({ core, model: createModelClient(config), guide: guide().text });
 * await runtime.start();
 * ```
 */
export function createNativeRuntime(options: NativeRuntimeOptions): NativeRuntime {
  const { core, model } = options;
  const { store, hostTransport, tables } = core;
  const now = core.clock;
  const limits = createLimits(options.limits ?? {}, now, options.usage, core.limits);
  const retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  const history = options.history ?? DEFAULT_HISTORY;
  const schedule =
    options.schedule ??
    ((run: () => void, ms: number) => {
      const t = setTimeout(run, ms);
      t.unref?.();
      return () => clearTimeout(t);
    });
  const runs = new Map<string, ThreadRun>();
  const waiters = new Set<() => void>();
  let unsubscribe: (() => void) | null = null;
  let stopped = false;
  let turnSeq = 0;
  const leases = options.leases ?? null;
  const holder = options.holder ?? `native-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  const leaseMs = options.leaseMs ?? TURN_LEASE_MS;

  const busy = () => [...runs.values()].some((r) => r.running);
  const settleIdle = () => {
    if (busy()) return;
    for (const w of [...waiters]) w();
    waiters.clear();
  };

  function runOf(agentId: string): ThreadRun {
    let r = runs.get(agentId);
    if (!r) {
      r = { running: false, again: false, failures: 0, cancel: null, notes: [] };
      runs.set(agentId, r);
    }
    return r;
  }

  function later(agentId: string, userId: string, ms: number) {
    const r = runOf(agentId);
    r.cancel?.();
    r.cancel = schedule(() => {
      r.cancel = null;
      kick(agentId, userId);
    }, ms);
  }

  async function kickOwed() {
    for (const owed of await store.nativeAgents.listWithPending()) kick(owed.agentId, owed.userId);
  }

  function kick(agentId: string, userId: string) {
    if (stopped) return;
    const r = runOf(agentId);
    if (r.running) {
      // Messages sent during a turn go in together as the next one.
      r.again = true;
      return;
    }
    r.cancel?.();
    r.cancel = null;
    r.running = true;
    void (async () => {
      try {
        do {
          r.again = false;
          try {
            await leased(agentId, userId, () => turn(agentId, userId, r));
          } catch (err) {
            // A store or transport failure outside the model call: report it and try the turn again later.
            options.onError?.(err, agentId);
            later(agentId, userId, retryMs[Math.min(r.failures++, retryMs.length - 1)]!);
          }
        } while (r.again && !stopped);
      } finally {
        r.running = false;
        settleIdle();
      }
    })();
  }

  /**
   * Runs `work` under the agent's lease when there are leases (several instances). Another instance holding
   * it runs the turn; this one looks again when the lease would lapse (that instance may have died).
   */
  async function leased(agentId: string, userId: string, work: () => Promise<void>) {
    if (!leases) return await work();
    if (!(await leases.claim(agentId, holder, leaseMs))) {
      later(agentId, userId, leaseMs);
      return;
    }
    // A long turn (a slow model, retries) keeps its lease.
    const renew = setInterval(() => {
      void leases.claim(agentId, holder, leaseMs).catch((err) => options.onError?.(err, agentId));
    }, leaseMs / 3);
    renew.unref?.();
    try {
      await work();
    } finally {
      clearInterval(renew);
      await leases.release(agentId, holder).catch((err) => options.onError?.(err, agentId));
    }
  }

  async function turn(agentId: string, userId: string, r: ThreadRun) {
    const agent = await store.agents.get(agentId);
    const native = await store.nativeAgents.get(agentId);
    if (!agent || !native || agent.kind !== 'hosted' || !agent.connectorId) return;
    const rows = await store.threads.pendingForHost({
      userId,
      agentIds: [agentId],
      afterSeq: 0,
      limit: MAX_TURN_ROWS,
    });
    if (rows.length === 0) return;
    const p = nativePrincipal(agent);
    const ids = rows.map((row) => row.id);
    const key = `native-${agentId}-${now()}-${++turnSeq}`;
    const verdict = await limits.check(userId);
    if (!verdict.ok && verdict.kind === 'turns') {
      later(agentId, userId, verdict.retryAfterMs);
      return;
    }
    if (!verdict.ok) {
      // Answered with the limit line: the rows stay in the thread the model reads tomorrow.
      await hostTransport.reply(p, {
        agent_id: agentId,
        idempotency_key: key,
        text: `${SERVICE_LINE_PREFIX}${verdict.line}`,
        turn: ids,
      });
      return;
    }
    await hostTransport.turn(p, { agent_id: agentId, rows: ids });
    try {
      const held = await tables.call(p, { agent: agentId });
      const page = await store.threads.page({ agentId, userId, limit: history });
      const messages = buildMessages({
        system: systemPrompt({
          name: agent.name,
          instructions: native.instructions,
          guide: options.guide,
          tables: 'tables' in held ? held.tables : '',
        }),
        rows: [...page].reverse(),
        turn: ids,
        notes: r.notes,
      });
      const answer = await answerWithReads(p, agentId, userId, messages);
      r.notes = [];
      r.failures = 0;
      await write(p, agent, key, ids, answer, r);
    } catch (err) {
      await failed(p, agent, key, err, r);
    }
  }

  /** Calls the model; a reply of only reads is fed back, at most twice in a row (the tables call counts). */
  async function answerWithReads(
    p: ConnectionPrincipal,
    agentId: string,
    userId: string,
    messages: ChatMessage[],
  ): Promise<ReplyTextResult> {
    for (let call = 1; ; call++) {
      const answer = await model.complete(messages);
      limits.record(userId, answer.tokens);
      const result = (await tables.call(p, { agent: agentId, reply: answer.text })) as
        | ReplyTextResult
        | ReplyReadResult;
      if (!('read' in result)) return result;
      if (call >= MAX_CALLS_PER_TURN) return { text: result.note, events: [], pending: [] };
      messages.push({ role: 'assistant', content: answer.text }, { role: 'user', content: result.note });
    }
  }

  async function write(
    p: ConnectionPrincipal,
    agent: AgentRecord,
    key: string,
    ids: string[],
    answer: ReplyTextResult,
    r: ThreadRun,
  ) {
    for (const e of answer.events) r.notes.push(`[svc] refused: ${JSON.stringify(e)}`);
    const { prose, lines } = splitScreen(answer.text);
    let text = prose;
    let screen: string | undefined;
    if (lines !== '') {
      const parsed = parse(lines);
      const drawable = parsed.ops.some((op) => op.op !== 'table' && op.op !== 'put');
      if (parsed.errors.length > 0) {
        // The person still reads the words; the model hears once, next turn, what failed.
        r.notes.push(
          `[svc] Your last screen was not shown: ${parsed.errors.map((e) => `line ${e.line}: ${e.message}`).join('; ')}`,
        );
        if (text === '') text = lines;
      } else if (drawable) screen = lines;
    }
    if (text === '' && screen === undefined) text = '…';
    await hostTransport.reply(p, {
      agent_id: agent.id,
      idempotency_key: key,
      ...(text !== '' ? { text } : {}),
      ...(screen !== undefined ? { lines: screen } : {}),
      turn: ids,
    });
  }

  async function failed(p: ConnectionPrincipal, agent: AgentRecord, key: string, err: unknown, r: ThreadRun) {
    if (!(err instanceof ModelError)) options.onError?.(err, agent.id);
    const reason = err instanceof Error ? err.message : String(err);
    // One line per outage, not one per retry; the rows stay unhandled and run when the model is back.
    if (r.failures === 0) {
      await hostTransport
        .reply(p, {
          agent_id: agent.id,
          idempotency_key: `${key}-down`,
          text: `${SERVICE_LINE_PREFIX}${agent.name} could not answer: ${reason} Your message is kept; it will be answered when the model is back.`,
        })
        .catch((e) => options.onError?.(e, agent.id));
    } else {
      await hostTransport.end(p, { agent_id: agent.id }).catch((e) => options.onError?.(e, agent.id));
    }
    const wait = retryMs[Math.min(r.failures, retryMs.length - 1)]!;
    r.failures += 1;
    later(agent.id, agent.userId, wait);
  }

  return {
    async start() {
      stopped = false;
      unsubscribe = core.notifier.subscribeAll((e) => {
        // Rows written on another instance while the link was down: whatever is owed runs now.
        if (e.type === 'resync') void kickOwed().catch((err) => options.onError?.(err, ''));
        if (e.type !== 'message' || e.message.sender !== 'person' || e.message.handledAt !== null) return;
        const { agentId, userId } = e;
        void store.nativeAgents
          .get(agentId)
          .then((n) => {
            if (n) kick(agentId, userId);
          })
          .catch((err) => options.onError?.(err, agentId));
      });
      await kickOwed();
    },
    stop() {
      stopped = true;
      unsubscribe?.();
      unsubscribe = null;
      for (const r of runs.values()) r.cancel?.();
    },
    kick,
    idle() {
      if (!busy()) return Promise.resolve();
      return new Promise((resolve) => waiters.add(resolve));
    },
  };
}
