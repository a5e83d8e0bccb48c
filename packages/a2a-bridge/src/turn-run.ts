// One turn against the remote agent: send (or resume), follow the task, return the view that ends it.
import { backoffDelay } from '@screen-service/io-kit/backoff';
import type { TapEvent } from '@screen-service/screen-lines';
import { applyEvent, emptyTaskView, endsTurn, type TaskView } from './answer.js';
import { type AgentCardInfo, isGraphExtension } from './card.js';
import { type A2AClient, createA2AClient } from './client.js';
import { A2A_RPC_CODES, BridgeError } from './errors.js';
import type { A2AEvent } from './model.js';
import type { ServiceLink } from './service-link.js';
import type { AgentState, StateFile, TurnState } from './state-file.js';
import { buildTurnMessage, type ChannelGuide } from './turn-message.js';

/** What a turn needs from the engine around it. */
export interface TurnRunContext {
  link: ServiceLink;
  state: StateFile;
  formatTapLine: (event: TapEvent) => string;
  guide: ChannelGuide | undefined;
  fetch: typeof fetch | undefined;
  pollInitialMs: number;
  pollMaxMs: number;
  /** Waits between task reads and sends (a timer; tests record the delays instead). */
  wait: (ms: number, signal?: AbortSignal) => Promise<void>;
  sendAttempts: number;
}

/** The agent a turn is for. */
export interface TurnAgent {
  agentId: string;
  card: AgentCardInfo;
  headers?: Record<string, string>;
}

const retryable = (e: unknown) =>
  e instanceof BridgeError && (e.code === 'AGENT_UNREACHABLE' || e.code === 'STREAM_DROPPED');

const refused = (e: unknown) =>
  e instanceof BridgeError && (e.code === 'RPC_ERROR' || e.code === 'RPC_HTTP_ERROR');

/**
 * Runs one turn to the state that ends it: resumes the task when the server already acknowledged the
 * message, otherwise sends it (same `messageId` on every attempt). `undefined` when `signal` aborted.
 *
 * @example
 * ```ts
 * const view = await runTurn(context, agent, turn, await state.agent(agent.agentId), signal);
 * ```
 */
export function runTurn(
  context: TurnRunContext,
  agent: TurnAgent,
  turn: TurnState,
  saved: AgentState,
  signal?: AbortSignal,
): Promise<TaskView | undefined> {
  return new TurnRun(context, agent, turn, saved, signal).finish();
}

class TurnRun {
  private view: TaskView = emptyTaskView();
  private readonly client: A2AClient;
  // One working row per run of a turn; after a restart the same post id makes a repeat harmless.
  private workingPosted = false;
  // One "not answering" line per run; its post id is per turn, so retries of the turn repeat nothing.
  private unreachablePosted = false;
  /** Following a task after a drop or a crash (not the stream of the first send). */
  private resumed = false;

  constructor(
    private readonly context: TurnRunContext,
    private readonly agent: TurnAgent,
    private turn: TurnState,
    saved: AgentState,
    private readonly signal: AbortSignal | undefined,
  ) {
    const extensions = agent.card.graphFramework ? agent.card.extensions.filter(isGraphExtension) : [];
    this.client = createA2AClient(agent.card, {
      headers: agent.headers ?? saved.headers ?? {},
      extensions,
      ...(context.fetch ? { fetch: context.fetch } : {}),
    });
  }

  /** The view that ends the turn, or `undefined` when the signal aborted first. */
  async finish(): Promise<TaskView | undefined> {
    const view = await this.run();
    return this.done() ? view : undefined;
  }

  private async run(): Promise<TaskView> {
    if (this.turn.heard && this.turn.taskId) {
      this.view.taskId = this.turn.taskId;
      return this.resume();
    }
    return this.sendFresh();
  }

  // The turn is over: an answer, a refusal, or a state that ends it. A turn that answers a question
  // must not take that same question (still in a task snapshot read too early) for a new one.
  private done(): boolean {
    if (!endsTurn(this.view)) return false;
    const asked = this.turn.question;
    const question = this.view.finalStatusMessage?.messageId;
    return !(
      this.view.state === 'input-required' &&
      asked !== undefined &&
      question === asked &&
      !this.view.message
    );
  }

  private message() {
    return buildTurnMessage({
      agentId: this.agent.agentId,
      rows: this.turn.rows,
      ...(this.turn.continues ? { taskId: this.turn.continues } : {}),
      ...(this.context.guide ? { guide: this.context.guide } : {}),
      graphFramework: this.agent.card.graphFramework,
      formatTapLine: this.context.formatTapLine,
    });
  }

  // Sends the turn's message (same messageId every time) until the server names the task.
  private async sendFresh(): Promise<TaskView> {
    const backoff = { baseMs: 250, maxMs: this.context.pollMaxMs };
    for (let attempt = 1; ; attempt++) {
      try {
        if (this.agent.card.streaming) await this.follow(this.client.stream(this.message(), this.signal));
        else await this.observe(await this.client.send(this.message(), false, this.signal));
        if (this.done() || this.signal?.aborted) return this.view;
        if (this.view.taskId) return this.resume();
        if (attempt >= this.context.sendAttempts) {
          throw new BridgeError(
            'RPC_BAD_RESPONSE',
            `${this.agent.card.name} closed the stream ${attempt} times without naming a task; check the agent`,
          );
        }
      } catch (error) {
        if (this.signal?.aborted) return this.view;
        if (refused(error)) return this.refusal(error);
        if (!retryable(error)) throw error;
        if (this.view.taskId) return this.resume();
        if (attempt >= this.context.sendAttempts) {
          await this.notAnswering(error);
          throw error;
        }
      }
      await this.context.wait(backoffDelay(backoff, attempt), this.signal);
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
    return this.done() ? this.view : this.poll(taskId);
  }

  // Reads the task until its state ends the turn, backing off to every pollMaxMs. The first read comes
  // at once: after a resume it is the authoritative copy of everything streamed so far.
  private async poll(taskId: string): Promise<TaskView> {
    const backoff = { baseMs: this.context.pollInitialMs, maxMs: this.context.pollMaxMs };
    let failures = 0;
    for (let read = 1; ; read++) {
      if (this.signal?.aborted) return this.view;
      try {
        const task = await this.client.getTask(taskId, this.signal);
        failures = 0;
        await this.observe({ type: 'task', task });
        if (this.done()) return this.view;
      } catch (error) {
        if (this.signal?.aborted) return this.view;
        if (error instanceof BridgeError && error.rpcCode === A2A_RPC_CODES.taskNotFound)
          return this.restart();
        if (!retryable(error)) throw error;
        // The agent went away mid-task: the bridge keeps reading, and the person learns why nothing comes.
        if (++failures >= this.context.sendAttempts) await this.notAnswering(error);
      }
      await this.context.wait(backoffDelay(backoff, read), this.signal);
    }
  }

  // The server lost the task (it restarted): send the message again as a new task.
  private async restart(): Promise<TaskView> {
    this.turn = { messageId: this.turn.messageId, rows: this.turn.rows, heard: false };
    const turn = this.turn;
    await this.context.state.update(this.agent.agentId, (s) => ({ ...s, turn }));
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
      if (this.done()) {
        await events.return(undefined);
        break;
      }
    }
    if (this.done() && this.view.taskId && this.resumed) {
      // After a resume, a task read is the complete copy of artifacts streamed before the drop.
      try {
        await this.observe({ type: 'task', task: await this.client.getTask(this.view.taskId, this.signal) });
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
      await this.context.state.update(this.agent.agentId, (s) => ({ ...s, turn }));
    }
    // A task that exists and has not ended the turn is submitted or working (or still shows the question
    // this turn answers, before the agent picked the answer up): the person sees a working row.
    if (!this.workingPosted && this.view.taskId && !this.done()) {
      this.workingPosted = true;
      await this.postWorking();
    }
  }

  /**
   * Tells the person the agent cannot be reached (issue 38: "working…" stayed up for minutes beside a dead
   * agent). A line with no turn rows: the person's rows stay owed and go when the agent is back, and the
   * service clears the working row on any answer.
   */
  private async notAnswering(error: unknown): Promise<void> {
    if (this.unreachablePosted) return;
    this.unreachablePosted = true;
    const why = error instanceof Error ? error.message : String(error);
    try {
      await this.context.link.post({
        id: `${this.turn.messageId}:unreachable`,
        agentId: this.agent.agentId,
        kind: 'status',
        text: `${this.agent.card.name} is not answering: ${why}\nYour message waits and goes to it as soon as it is back.`,
        meta: { turn: [] },
      });
    } catch {
      // Like the working row, a courtesy: the turn goes on either way.
    }
  }

  private async postWorking(): Promise<void> {
    try {
      await this.context.link.post({
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
