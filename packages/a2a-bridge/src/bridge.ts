// The engine: one turn at a time per agent, from the service's rows to the remote agent and back.
import {
  guide as screenGuide,
  formatTapLine as screenTapLine,
  type TapEvent,
} from '@screen-service/screen-lines';
import { type Answer, answerFor, applyEvent, emptyTaskView, endsTurn, type TaskView } from './answer.js';
import { type AgentCardInfo, isGraphExtension } from './card.js';
import { type A2AClient, createA2AClient } from './client.js';
import { A2A_RPC_CODES, BridgeError } from './errors.js';
import type { A2AEvent } from './model.js';
import type { Outbox } from './outbox.js';
import type { OutboundPost, ServiceLink } from './service-link.js';
import type { AgentState, StateFile, TurnState } from './state-file.js';
import { buildTurnMessage, type ChannelGuide, deriveMessageId } from './turn-message.js';

/** One paired agent: the service agent's id and the remote agent's card. */
export interface BridgeAgent {
  agentId: string;
  card: AgentCardInfo;
  /** Headers for the remote agent; default: the ones kept in the state file. */
  headers?: Record<string, string>;
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
  /** Sends of one message while its task id is unheard before a step gives up (default 5). */
  sendAttempts?: number;
  /** Wait between looks for new rows in `run` (default 1 000 ms). */
  idleMs?: number;
  /** Told about each failed step in `run` (the turn stays and is tried again). */
  onError?: (agentId: string, error: unknown) => void;
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

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

const pickGuide = (g: { text: string; version: string }): ChannelGuide => ({
  text: g.text,
  version: g.version,
});

const retryable = (e: unknown) =>
  e instanceof BridgeError && (e.code === 'AGENT_UNREACHABLE' || e.code === 'STREAM_DROPPED');

const refused = (e: unknown) =>
  e instanceof BridgeError && (e.code === 'RPC_ERROR' || e.code === 'RPC_HTTP_ERROR');

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
  const pollInitial = options.pollInitialMs ?? 1000;
  const pollMax = options.pollMaxMs ?? 30_000;
  const attempts = options.sendAttempts ?? 5;
  const formatTapLine = options.formatTapLine ?? screenTapLine;
  const channelGuide: ChannelGuide | undefined =
    options.guide === false ? undefined : (options.guide ?? pickGuide(screenGuide()));

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
      }
      const started = turn;
      await state.update(agent.agentId, (s) => ({ ...s, turn: started }));
      await link.markDelivered(
        agent.agentId,
        rows.map((r) => r.id),
      );
    }
    const view = await new TurnRun(agent, turn, saved, signal).run();
    if (signal?.aborted && !endsTurn(view)) return 'idle';
    const answer = answerFor(view, agent.card.name);
    await outbox.put(postFor(agent.agentId, turn, view, answer));
    await state.update(agent.agentId, (s) => {
      const next: AgentState = { ...s };
      delete next.turn;
      delete next.openTaskId;
      if (view.state === 'input-required' && view.taskId && !view.message) next.openTaskId = view.taskId;
      return next;
    });
    await outbox.flush(link);
    return 'answered';
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
    return post;
  }

  // One turn against the remote agent: send (or resume), follow the task, return the view that ends it.
  class TurnRun {
    private view: TaskView = emptyTaskView();
    private readonly client: A2AClient;
    // One working row per run of a turn; after a restart the same post id makes a repeat harmless.
    private workingPosted = false;
    /** Following a task after a drop or a crash (not the stream of the first send). */
    private resumed = false;

    constructor(
      private readonly agent: BridgeAgent,
      private turn: TurnState,
      saved: AgentState,
      private readonly signal: AbortSignal | undefined,
    ) {
      const headers = agent.headers ?? saved.headers ?? {};
      const extensions = agent.card.graphFramework ? agent.card.extensions.filter(isGraphExtension) : [];
      this.client = createA2AClient(agent.card, {
        headers,
        extensions,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
    }

    async run(): Promise<TaskView> {
      if (this.turn.heard && this.turn.taskId) {
        this.view.taskId = this.turn.taskId;
        return this.resume();
      }
      return this.sendFresh();
    }

    private message() {
      return buildTurnMessage({
        agentId: this.agent.agentId,
        rows: this.turn.rows,
        ...(this.turn.continues ? { taskId: this.turn.continues } : {}),
        ...(channelGuide ? { guide: channelGuide } : {}),
        graphFramework: this.agent.card.graphFramework,
        formatTapLine,
      });
    }

    // Sends the turn's message (same messageId every time) until the server names the task.
    private async sendFresh(): Promise<TaskView> {
      let delay = 250;
      for (let attempt = 1; ; attempt++) {
        try {
          if (this.agent.card.streaming) await this.follow(this.client.stream(this.message(), this.signal));
          else await this.observe(await this.client.send(this.message(), false, this.signal));
          if (endsTurn(this.view) || this.signal?.aborted) return this.view;
          if (this.view.taskId) return this.resume();
        } catch (error) {
          if (this.signal?.aborted) return this.view;
          if (refused(error)) return this.refusal(error);
          if (!retryable(error)) throw error;
          if (this.view.taskId) return this.resume();
          if (attempt >= attempts) throw error;
        }
        await sleep(delay, this.signal);
        delay = Math.min(delay * 2, pollMax);
      }
    }

    // Follows a task whose id is known: subscribe, then read the task, then poll.
    private async resume(): Promise<TaskView> {
      const taskId = this.view.taskId!;
      this.resumed = true;
      if (this.agent.card.streaming) {
        try {
          await this.follow(this.client.subscribe(taskId, this.signal));
        } catch (error) {
          if (this.signal?.aborted) return this.view;
          if (!retryable(error) && !(error instanceof BridgeError && error.code === 'RPC_ERROR')) throw error;
        }
      }
      return this.poll(taskId);
    }

    // Reads the task until its state ends the turn, backing off to every pollMax ms. The first read
    // comes at once: after a resume it is the authoritative copy of everything streamed so far.
    private async poll(taskId: string): Promise<TaskView> {
      let delay = pollInitial;
      for (;;) {
        if (this.signal?.aborted) return this.view;
        try {
          const task = await this.client.getTask(taskId, this.signal);
          await this.observe({ type: 'task', task });
          if (endsTurn(this.view)) return this.view;
        } catch (error) {
          if (this.signal?.aborted) return this.view;
          if (error instanceof BridgeError && error.rpcCode === A2A_RPC_CODES.taskNotFound)
            return this.restart();
          if (!retryable(error)) throw error;
        }
        await sleep(delay, this.signal);
        delay = Math.min(delay * 2, pollMax);
      }
    }

    // The server lost the task (it restarted): send the message again as a new task.
    private async restart(): Promise<TaskView> {
      this.turn = { messageId: this.turn.messageId, rows: this.turn.rows, heard: false };
      const turn = this.turn;
      await state.update(this.agent.agentId, (s) => ({ ...s, turn }));
      this.view = emptyTaskView();
      return this.sendFresh();
    }

    private refusal(error: unknown): TaskView {
      this.view = { ...this.view, refusal: (error as Error).message };
      return this.view;
    }

    private async follow(events: AsyncGenerator<A2AEvent, void, undefined>): Promise<void> {
      for await (const event of events) {
        await this.observe(event);
        // auth-required keeps the stream open on some servers: the bridge ends the turn itself.
        if (endsTurn(this.view)) {
          await events.return(undefined);
          break;
        }
      }
      if (endsTurn(this.view) && this.view.taskId && this.resumed) {
        // After a resume, a task read is the complete copy of artifacts streamed before the drop.
        try {
          await this.observe({
            type: 'task',
            task: await this.client.getTask(this.view.taskId, this.signal),
          });
        } catch {
          // The stream's own view stands.
        }
      }
    }

    private async observe(event: A2AEvent): Promise<void> {
      this.view = applyEvent(this.view, event);
      const taskId = this.view.taskId;
      if (taskId && !this.turn.heard) {
        this.turn = { ...this.turn, taskId, heard: true };
        const turn = this.turn;
        await state.update(this.agent.agentId, (s) => ({ ...s, turn }));
      }
      if ((this.view.state === 'submitted' || this.view.state === 'working') && !this.workingPosted) {
        this.workingPosted = true;
        await this.postWorking();
      }
    }

    private async postWorking(): Promise<void> {
      try {
        await link.post({
          id: `${this.turn.messageId}:working`,
          agentId: this.agent.agentId,
          kind: 'working',
          text: `${this.agent.card.name} is working…`,
          meta: {
            turn: this.turn.rows.map((r) => r.id),
            ...(this.view.taskId ? { taskId: this.view.taskId } : {}),
          },
        });
      } catch {
        // A lost working row costs nothing; the answer still goes through the outbox.
      }
    }
  }

  return {
    step,
    async run(agents, signal) {
      await Promise.all(
        agents.map(async (agent) => {
          while (!signal.aborted) {
            try {
              if ((await step(agent, signal)) === 'idle') await sleep(options.idleMs ?? 1000, signal);
            } catch (error) {
              options.onError?.(agent.agentId, error);
              await sleep(options.idleMs ?? 1000, signal);
            }
          }
        }),
      );
    },
  };
}
