// The owner-only state file: per agent its card, headers, the turn in flight and an open question.

import { BridgeError } from './errors.js';
import { readJsonFile, writePrivateJson } from './private-files.js';
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

/** A turn the bridge owes the agent itself: the rows of a read, or a note, standing in for the person's rows. */
export interface FollowUp {
  row: InboundRow;
  /** The person's rows this follow-up carries on (answered when the follow-up's turn is answered). */
  carries: string[];
}

/** The service connection: one connector per machine, shared by every agent the bridge serves. */
export interface ServiceState {
  /** `{base}/functions/v1/svc-connect`. */
  connectUrl: string;
  /** The connector token `svc_ct_…` (never printed). */
  token: string;
  connectorId: string;
  /** The connector's name in the app. */
  name: string;
}

/** What the bridge keeps per agent. */
export interface AgentState {
  /** `a2a` (a card) or `webhook` (a plain HTTPS endpoint); absent in part-1 files means `a2a`. */
  kind?: 'a2a' | 'webhook';
  /** The profile name this agent has on the connector (doc2 `remote_ref`). */
  remoteRef?: string;
  /** The remote agent's name (its card's, or the webhook's). */
  name?: string;
  /** The service agent's handle (the tables call names agents by it). */
  handle?: string;
  cardUrl?: string;
  /** The card endpoint's origin the person confirmed at pair (`--allow-endpoint`) when not the card's. */
  endpointOrigin?: string;
  /** The webhook's address and its signing secret (shown once at pair). */
  webhookUrl?: string;
  webhookSecret?: string;
  /** Turns the bridge owes after a tables read (the results go to the agent at once). */
  followUps?: FollowUp[];
  /** Refused table writes to tell the agent with its next turn. */
  notes?: Record<string, unknown>;
  /** Reads in a row without an answer for the person (at most 2, doc3 Limits). */
  readsInRow?: number;
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
  /** Set by the first `pair`. */
  service?: ServiceState;
  agents: Record<string, AgentState>;
}

/**
 * The state file, written atomically with owner-only permissions on every change. Updates are
 * serialized and start from the file on disk, so `pair` beside a running `run` loses nothing.
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
    return this.write((state) => {
      const next = change(state.agents[agentId] ?? {});
      return { state: { ...state, agents: { ...state.agents, [agentId]: next } }, result: next };
    });
  }

  /** Sets the service connection (after `pair`). */
  setService(service: ServiceState): Promise<ServiceState> {
    return this.write((state) => ({ state: { ...state, service }, result: service }));
  }

  /** Forgets an agent; true when it was there. */
  remove(agentId: string): Promise<boolean> {
    return this.write((state) => {
      const { [agentId]: gone, ...rest } = state.agents;
      return { state: { ...state, agents: rest }, result: gone !== undefined };
    });
  }

  /** Drops the cached copy: the next read sees what other processes (`pair`, `add`) wrote. */
  forget(): void {
    this.cache = undefined;
  }

  // Updates are serialized, and each starts from the file on disk: `pair` or `add` may have written an
  // agent while `run` holds the file, and a write from a stale copy would drop it.
  private write<T>(change: (state: BridgeState) => { state: BridgeState; result: T }): Promise<T> {
    const run = this.queue.then(async () => {
      this.cache = undefined;
      const { state, result } = change(await this.read());
      await writePrivateJson(this.path, state);
      this.cache = state;
      return result;
    });
    this.queue = run.catch(() => {});
    return run;
  }
}
