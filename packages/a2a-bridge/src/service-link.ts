// The bridge's interface to the service (rows in, answers out), with in-memory and file implementations.
import type { TapEvent } from '@screen-service/screen-lines';
import { BridgeError } from './errors.js';
import type { TaskState } from './model.js';
import { readJsonFile, writePrivateJson } from './private-files.js';

/** One row the person put in the agent's thread, waiting to go to the remote agent. */
export interface InboundRow {
  /** The row's id in the thread; the turn's `messageId` is derived from these. */
  id: string;
  /** What the person typed. */
  text?: string;
  /** A tap on a screen. */
  tap?: TapEvent;
  /** Tables results to hand to the agent (sent as the data part `{svc:"tables", ...}`). */
  tables?: Record<string, unknown>;
  /** The `meta.tables` line after a hand over (`[svc] tables <name>(...)`), put at the top of the turn. */
  metaTables?: string;
}

/** What a post is: a working row, the answer (or the agent's question), or a line about the task's end. */
export type PostKind = 'working' | 'answer' | 'status';

/** One row the bridge writes into the agent's thread. */
export interface OutboundPost {
  /** Stable id: posting the same id twice must have the effect of posting it once. */
  id: string;
  agentId: string;
  kind: PostKind;
  text: string;
  meta: {
    /** The rows this post answers (all rows of the turn). */
    turn: string[];
    taskId?: string;
    state?: TaskState;
    /** Table lines the agent sent as the data part `{svc:"tables", lines}`. */
    tables?: unknown;
    /** The answer was only the tables data part: a read; the service runs it and sends rows back at once. */
    read?: true;
    /** The screen's deadline the agent sent as the data part `{svc:"deadline", ...}` (ADR 0260). */
    deadline?: Record<string, unknown>;
  };
}

/**
 * What the bridge needs from the service. Part 2 implements it over the host API; the contract:
 * - `pendingRows` lists the person's rows not yet handled, oldest first (delivered ones included);
 * - `markDelivered` marks rows delivered when their turn starts;
 * - `post` is idempotent on `post.id`, and an `answer` or `status` post marks its `meta.turn` rows handled.
 */
export interface ServiceLink {
  pendingRows(agentId: string): Promise<InboundRow[]>;
  markDelivered(agentId: string, rowIds: string[]): Promise<void>;
  post(post: OutboundPost): Promise<void>;
  /** Resolves when rows may be waiting for the agent, after at most `ms`, or when `signal` aborts (optional). */
  waitForRows?(agentId: string, ms: number, signal: AbortSignal): Promise<void>;
}

/** The whole state of a link: rows per agent, which are delivered/handled, and the posts. */
interface LinkData {
  rows: Record<string, InboundRow[]>;
  delivered: string[];
  handled: string[];
  posts: OutboundPost[];
}

const emptyData = (): LinkData => ({ rows: {}, delivered: [], handled: [], posts: [] });

/**
 * A service link kept in memory: the service side for tests and for running the engine without a
 * service. `addRow` plays the person.
 *
 * @example
 * ```ts
 * const link = new MemoryServiceLink();
 * await link.addRow('agent-1', { id: 'r1', text: 'hello' });
 * ```
 */
export class MemoryServiceLink implements ServiceLink {
  protected data: LinkData = emptyData();

  protected async load(): Promise<LinkData> {
    return this.data;
  }

  protected async save(data: LinkData): Promise<void> {
    this.data = data;
  }

  /** Puts a row from the person into an agent's thread. */
  async addRow(agentId: string, row: InboundRow): Promise<void> {
    const data = await this.load();
    data.rows[agentId] = [...(data.rows[agentId] ?? []), row];
    await this.save(data);
  }

  /** Every post written for an agent, in order. */
  async posts(agentId: string): Promise<OutboundPost[]> {
    return (await this.load()).posts.filter((p) => p.agentId === agentId);
  }

  /** Whether a row was marked delivered. */
  async isDelivered(rowId: string): Promise<boolean> {
    return (await this.load()).delivered.includes(rowId);
  }

  async pendingRows(agentId: string): Promise<InboundRow[]> {
    const data = await this.load();
    return (data.rows[agentId] ?? []).filter((r) => !data.handled.includes(r.id));
  }

  async markDelivered(_agentId: string, rowIds: string[]): Promise<void> {
    const data = await this.load();
    for (const id of rowIds) if (!data.delivered.includes(id)) data.delivered.push(id);
    await this.save(data);
  }

  async post(post: OutboundPost): Promise<void> {
    const data = await this.load();
    if (data.posts.some((p) => p.id === post.id)) return;
    data.posts.push(post);
    if (post.kind !== 'working') {
      for (const id of post.meta.turn) if (!data.handled.includes(id)) data.handled.push(id);
    }
    await this.save(data);
  }
}

/**
 * The same link kept in one owner-only JSON file, so that separate processes (a bridge killed and
 * restarted) see one service.
 *
 * @example
 * ```ts
 * const link = new FileServiceLink('/tmp/link.json');
 * ```
 */
export class FileServiceLink extends MemoryServiceLink {
  constructor(readonly path: string) {
    super();
  }

  protected override async load(): Promise<LinkData> {
    let json: unknown;
    try {
      json = await readJsonFile(this.path);
    } catch (cause) {
      throw new BridgeError('LINK_FAILED', `the link file ${this.path} is not valid JSON; remove it`, {
        cause,
      });
    }
    return json === undefined ? emptyData() : (json as LinkData);
  }

  protected override async save(data: LinkData): Promise<void> {
    await writePrivateJson(this.path, data);
  }
}
