// The owner-only state file: per agent its card, headers, the turn in flight and an open question.
import { readJsonFile, writeJsonAtomic } from './atomic-file.js';
import { BridgeError } from './errors.js';
import type { InboundRow } from './service-link.js';

/** The turn in flight: enough to resend it or to resume its task after a crash. */
export interface TurnState {
  messageId: string;
  rows: InboundRow[];
  /** The task the message belongs to: named by the server, or the task being continued. */
  taskId?: string;
  /** The server has acknowledged this message (so resume the task instead of resending). */
  heard: boolean;
  /** The task that asked back and that this turn continues. */
  continues?: string;
  /** The messageId of the question this turn answers (not to be taken for a new question). */
  question?: string;
}

/** What the bridge keeps per agent. */
export interface AgentState {
  cardUrl?: string;
  /** Headers for the remote agent (e.g. `Authorization`), given at `pair`. */
  headers?: Record<string, string>;
  turn?: TurnState;
  /** A task that asked back (`input-required`): the next turn continues it. */
  openTaskId?: string;
  /** The messageId of that task's question. */
  openQuestion?: string;
}

/** The whole file. */
export interface BridgeState {
  version: 1;
  agents: Record<string, AgentState>;
}

/**
 * The state file, written atomically with owner-only permissions on every change. One process owns
 * it; updates are serialized.
 *
 * @example
 * ```ts
 * const state = new StateFile('/home/me/.svc-a2a/state.json');
 * await state.update('agent-1', (s) => ({ ...s, headers: { Authorization: 'Bearer k' } }));
 * ```
 */
export class StateFile {
  private cache: BridgeState | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  /** Reads the whole state (cached after the first read). */
  async read(): Promise<BridgeState> {
    if (this.cache) return this.cache;
    let json: unknown;
    try {
      json = await readJsonFile(this.path);
    } catch (cause) {
      throw new BridgeError(
        'INVALID_STATE_FILE',
        `the state file ${this.path} is not valid JSON; move it away and pair the agents again`,
        { cause },
      );
    }
    if (json === undefined) {
      this.cache = { version: 1, agents: {} };
    } else {
      const s = json as Partial<BridgeState>;
      if (s.version !== 1 || typeof s.agents !== 'object' || s.agents === null) {
        throw new BridgeError(
          'INVALID_STATE_FILE',
          `the state file ${this.path} is not a version 1 bridge state; move it away and pair the agents again`,
        );
      }
      this.cache = s as BridgeState;
    }
    return this.cache;
  }

  /** One agent's state (empty when unknown). */
  async agent(agentId: string): Promise<AgentState> {
    return (await this.read()).agents[agentId] ?? {};
  }

  /** Replaces one agent's state with what `change` returns, and writes the file. */
  update(agentId: string, change: (state: AgentState) => AgentState): Promise<AgentState> {
    const run = this.queue.then(async () => {
      const state = await this.read();
      const next = change(state.agents[agentId] ?? {});
      const written: BridgeState = { version: 1, agents: { ...state.agents, [agentId]: next } };
      await writeJsonAtomic(this.path, written);
      this.cache = written;
      return next;
    });
    this.queue = run.catch(() => {});
    return run;
  }
}
