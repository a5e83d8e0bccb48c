// The engine: one turn at a time per agent, from the service's rows to the remote agent and back.

import { backoffDelay } from '@screen-service/io-kit/backoff';
import {
  guide as screenGuide,
  formatTapLine as screenTapLine,
  type TapEvent,
} from '@screen-service/screen-lines';
import { type Answer, answerFor, deadlineOf, type TaskView } from './answer.js';
import type { AgentCardInfo } from './card.js';
import type { Outbox } from './outbox.js';
import type { OutboundPost, ServiceLink } from './service-link.js';
import { sleep } from './sleep.js';
import type { AgentState, StateFile, TurnState } from './state-file.js';
import { type ChannelGuide, deriveMessageId } from './turn-message.js';
import { runTurn, type TurnRunContext } from './turn-run.js';
import {
  DEFAULT_WEBHOOK_POLICY,
  runWebhookTurn,
  type WebhookPolicy,
  type WebhookTarget,
  webhookBody,
} from './webhook-turn.js';

/** One paired agent: the service agent's id and the remote agent's card. */
export interface BridgeAgent {
  agentId: string;
  card: AgentCardInfo;
  /** Headers for the remote agent; default: the ones kept in the state file. */
  headers?: Record<string, string>;
  /** Set for a webhook agent: turns are signed POSTs to this target instead of A2A calls (`card` gives the name). */
  webhook?: WebhookTarget;
}

/** Options for {@link createBridge}. */
export interface BridgeOptions {
  link: ServiceLink;
  state: StateFile;
  outbox: Outbox;
  /** Formats a tap; default: `formatTapLine` of `@screen-service/screen-lines`. */
  formatTapLine?: (event: TapEvent) => string;
  /** The channel guide; default: `guide()` of screen-lines; `false`: the agent gets the person's words only. */
  guide?: ChannelGuide | false;
  fetch?: typeof fetch;
  /** First poll delay without streaming (default 1 000 ms); doubles up to `pollMaxMs` (default 30 000). */
  pollInitialMs?: number;
  pollMaxMs?: number;
  /**
   * How the engine waits between task reads and between sends of a message (default: a timer that
   * `signal` cuts short). Tests pass one that records the delays instead of waiting them out.
   */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Sends of one message while its task id is unheard before a step gives up (default 5). */
  sendAttempts?: number;
  /** Wait between looks for new rows in `run` (default 1 000 ms). */
  idleMs?: number;
  /** Told about each failed step in `run` (the turn stays and is tried again, waiting longer each time). */
  onError?: (agentId: string, error: unknown) => void;
  /**
   * Failed steps in a row after which `run` stops serving the agent and tells the person why (default 5);
   * the turn stays in the state file for the next `svc-a2a run`.
   */
  maxFailures?: number;
  /** Told when `run` stopped serving an agent after {@link BridgeOptions.maxFailures} failures. */
  onGiveUp?: (agentId: string, error: unknown) => void;
  /** Timeouts and retries of webhook deliveries (default {@link DEFAULT_WEBHOOK_POLICY}). */
  webhook?: Partial<WebhookPolicy>;
  /** Progress for a person watching: a turn started, an answer written, a retry. */
  onProgress?: (agentId: string, line: string) => void;
}

/** What one step did. */
export type StepResult = 'idle' | 'answered';

/** The engine. */
export interface Bridge {
  /** Flushes the outbox, then runs one turn for the agent (resuming one in flight). */
  step(agent: BridgeAgent, signal?: AbortSignal): Promise<StepResult>;
  /** Runs all agents side by side until `signal` aborts. */
  run(agents: BridgeAgent[], signal: AbortSignal): Promise<void>;
}

const pickGuide = (g: { text: string; version: string }): ChannelGuide => ({
  text: g.text,
  version: g.version,
});

/**
 * Creates the engine. Each step follows doc3: rows are marked delivered when the turn starts; the
 * turn's message (id fixed by its rows) is stored before it is sent and resent unchanged until the
 * server names the task; the task id is stored as soon as named; a dropped stream is resumed by
 * subscribing, then by a task read; the answer is queued in the outbox before the turn is cleared,
 * and posted with a stable id so a crash at any point writes it once.
 *
 * @example
 * ```ts
 * const bridge = createBridge({ link, state: new StateFile(p), outbox: new Outbox(dir), formatTapLine, guide: guide() });
 * await bridge.run([{ agentId: 'a1', card: await fetchAgentCard(url) }], controller.signal);
 * ```
 */
export function createBridge(options: BridgeOptions): Bridge {
  const { link, state, outbox } = options;
  const context: TurnRunContext = {
    link,
    state,
    formatTapLine: options.formatTapLine ?? screenTapLine,
    guide: options.guide === false ? undefined : (options.guide ?? pickGuide(screenGuide())),
    fetch: options.fetch,
    pollInitialMs: options.pollInitialMs ?? 1000,
    pollMaxMs: options.pollMaxMs ?? 30_000,
    wait: options.wait ?? sleep,
    sendAttempts: options.sendAttempts ?? 5,
  };
  const webhookPolicy: WebhookPolicy = { ...DEFAULT_WEBHOOK_POLICY, ...options.webhook };
  // Waits for new rows when the link can say so (the host link wakes on the stream), else sleeps.
  const idle = (agentId: string, signal: AbortSignal) =>
    link.waitForRows
      ? link.waitForRows(agentId, options.idleMs ?? 1000, signal)
      : sleep(options.idleMs ?? 1000, signal);

  async function step(agent: BridgeAgent, signal?: AbortSignal): Promise<StepResult> {
    await outbox.flush(link);
    const saved = await state.agent(agent.agentId);
    let turn = saved.turn;
    if (!turn) {
      const rows = await link.pendingRows(agent.agentId);
      if (rows.length === 0) return 'idle';
      turn = {
        messageId: deriveMessageId(
          agent.agentId,
          rows.map((r) => r.id),
        ),
        rows,
        heard: false,
      };
      if (saved.openTaskId) {
        turn.continues = saved.openTaskId;
        turn.taskId = saved.openTaskId;
        if (saved.openQuestion) turn.question = saved.openQuestion;
      }
      const fresh = turn;
      await state.update(agent.agentId, (s) => ({ ...s, turn: fresh }));
      await link.markDelivered(
        agent.agentId,
        rows.map((r) => r.id),
      );
    }
    const started = Date.now();
    const progress = (line: string) => options.onProgress?.(agent.agentId, line);
    progress(`${agent.card.name}: turn of ${turn.rows.length} row(s)${turn.heard ? ' (resumed)' : ''}`);
    const view = agent.webhook
      ? await runWebhookTurn(
          agent.webhook,
          webhookBody({ agentId: agent.agentId, name: agent.card.name }, turn, context.formatTapLine),
          webhookPolicy,
          {
            ...(options.fetch ? { fetch: options.fetch } : {}),
            ...(signal ? { signal } : {}),
            onRetry: (why) => progress(`${agent.card.name}: ${why}`),
          },
        )
      : await runTurn(context, agent, turn, saved, signal);
    if (!view) return 'idle';
    const answer = answerFor(view, agent.card.name);
    const post = postFor(agent.agentId, turn, view, answer);
    await outbox.put(post);
    await state.update(agent.agentId, (s) => {
      const next: AgentState = { ...s };
      delete next.turn;
      delete next.openTaskId;
      delete next.openQuestion;
      if (view.state === 'input-required' && view.taskId && !view.message) {
        next.openTaskId = view.taskId;
        const question = view.finalStatusMessage?.messageId;
        if (question) next.openQuestion = question;
      }
      return next;
    });
    await outbox.flush(link);
    progress(
      `${agent.card.name}: ${post.meta.read ? 'read its tables' : post.kind}${post.meta.state ? ` (${post.meta.state})` : ''} in ${Date.now() - started} ms`,
    );
    return 'answered';
  }

  async function giveUp(agent: BridgeAgent, error: unknown, failures: number): Promise<void> {
    options.onGiveUp?.(agent.agentId, error);
    const why = error instanceof Error ? error.message : String(error);
    try {
      await link.post({
        id: `${agent.agentId}:gave-up:${failures}:${Date.now()}`,
        agentId: agent.agentId,
        kind: 'status',
        text:
          `${agent.card.name} failed ${failures} times in a row (${why}). The bridge stopped trying; ` +
          'your message waits. Fix the agent, then start svc-a2a run again.',
        meta: { turn: [] },
      });
    } catch {
      // The terminal line (onGiveUp) still tells whoever runs the bridge.
    }
  }

  function postFor(agentId: string, turn: TurnState, view: TaskView, answer: Answer): OutboundPost {
    const post: OutboundPost = {
      id: `${turn.messageId}:answer`,
      agentId,
      kind: answer.kind,
      text: answer.text,
      meta: { turn: turn.rows.map((r) => r.id) },
    };
    if (view.taskId) post.meta.taskId = view.taskId;
    if (!view.message && view.state !== 'unknown') post.meta.state = view.state;
    if (answer.tables.length > 0) post.meta.tables = answer.tables;
    if (answer.tables.length > 0 && answer.text === '') post.meta.read = true;
    const deadline = deadlineOf(view);
    if (deadline) post.meta.deadline = deadline;
    return post;
  }

  return {
    step,
    async run(agents, signal) {
      const maxFailures = options.maxFailures ?? 5;
      const pause = { baseMs: options.idleMs ?? 1000, maxMs: 60_000 };
      await Promise.all(
        agents.map(async (agent) => {
          // Each failure waits twice as long; after maxFailures in a row the bridge stops (issue 46: a
          // failing endpoint was retried once a second without end) and says so in the thread.
          for (let failures = 0; !signal.aborted; ) {
            try {
              const done = await step(agent, signal);
              failures = 0;
              if (done === 'idle') await idle(agent.agentId, signal);
            } catch (error) {
              options.onError?.(agent.agentId, error);
              if (++failures >= maxFailures) return giveUp(agent, error, failures);
              await sleep(backoffDelay(pause, failures), signal);
            }
          }
        }),
      );
    },
  };
}
