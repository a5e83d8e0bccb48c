// The ServiceLink over the live service: rows from the host message stream, turns and idempotent answers
// through the host API, tables through the tables call (doc2 host API, doc3 tables call).
import { createHash } from 'node:crypto';
import { HostApiError, type HostClient } from '@screen-service/connect-api/client';
import type { TapEvent } from '@screen-service/screen-lines';
import { splitAnswer } from './answer-split.js';
import type { InboundRow, OutboundPost, ServiceLink } from './service-link.js';
import type { StateFile } from './state-file.js';

/** The fields of a host-stream row the bridge uses (`HostMessage` of the host API). */
export interface StreamRow {
  seq: number;
  id: string;
  agent: { id: string; handle: string; remote_ref: string | null };
  kind: 'text' | 'tap';
  text: string;
  event: Record<string, unknown> | null;
  photos: string[];
}

/** Options of {@link HostServiceLink}. */
export interface HostServiceLinkOptions {
  client: HostClient;
  /** The bridge's state file: follow-up turns after a read and notes survive a restart there. */
  state: StateFile;
  /** Told about answers the service refused for good (they are dropped, so the outbox keeps moving). */
  log?: (line: string) => void;
}

/** Text one answer may carry through the host API (doc2 limits). */
export const MAX_ANSWER_CHARS = 4000;
/** A working row shown this recently is not shown again (the service keeps one for 2 minutes). */
const WORKING_FRESH_MS = 60_000;
/** Reads in a row the bridge hands back to the agent before it tells the person instead (doc3 Limits). */
export const MAX_READS_IN_A_ROW = 2;

const LOCAL = 'bridge.';
const isLocal = (id: string) => id.startsWith(LOCAL);
const localId = (kind: string, seed: string) =>
  `${LOCAL}${kind}.${createHash('sha256').update(seed).digest('hex').slice(0, 24)}`;
const FENCED_TABLES = /^\s*```\s*(svc|tables)\s*$/m;

function clip(text: string): string {
  return text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS - 1)}…` : text;
}

// `{svc:"tables", lines}` may carry text or a list of lines.
function linesOf(tables: unknown): string {
  const list = Array.isArray(tables) ? tables : [tables];
  return list
    .flatMap((t) => (Array.isArray(t) ? t : [t]))
    .filter((t): t is string => typeof t === 'string' && t.trim() !== '')
    .join('\n');
}

// A tables call the service refuses for good (over a limit, too many lines) must not cost the person the
// answer: the refusal is told to the agent like a refused line.
async function refusedAsData<T>(call: Promise<T>): Promise<T | { refused: { error: string; code: string } }> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof HostApiError) || !error.permanent || error.code === 'connector_revoked')
      throw error;
    return { refused: { error: error.message, code: error.code } };
  }
}

/** A row of the host stream as the engine takes it: typed text (with photo links) or a tap. */
export function inboundRowOf(m: StreamRow): InboundRow {
  if (m.kind === 'tap' && m.event) return { id: m.id, tap: m.event as unknown as TapEvent };
  const text = [m.text, ...m.photos].filter((t) => t !== '').join('\n');
  return { id: m.id, text };
}

/**
 * The bridge's link to the live service. Feed it the host message stream with {@link accept}; the engine
 * reads `pendingRows`, starts turns (`markDelivered` → the host API's turn: rows delivered, working row)
 * and posts answers (`post` → the reply with the idempotency key `a2a.<post id>`, so a resend after any
 * crash writes once). An answer's table lines go through the tables call; a read's rows come back as a
 * follow-up row (kept in the state file) that the engine sends to the agent at once.
 *
 * @example
 * ```ts
 * const link = new HostServiceLink({ client, state });
 * openMessageStream({ connectUrl: client.connectUrl, token, onMessage: (m) => link.accept(m) });
 * ```
 */
export class HostServiceLink implements ServiceLink {
  private readonly client: HostClient;
  private readonly state: StateFile;
  private readonly log: (line: string) => void;
  private readonly rows = new Map<string, InboundRow[]>();
  private readonly handled = new Set<string>();
  private readonly handles = new Map<string, string>();
  private readonly waiters = new Map<string, Set<() => void>>();
  /** When each turn's working row was last shown (agent and rows → ms). */
  private readonly started = new Map<string, number>();

  constructor(options: HostServiceLinkOptions) {
    this.client = options.client;
    this.state = options.state;
    this.log = options.log ?? (() => {});
  }

  /** Takes one row of the host stream (rows already answered are ignored). */
  accept(m: StreamRow): void {
    this.handles.set(m.agent.id, m.agent.handle);
    if (this.handled.has(m.id)) return;
    const list = this.rows.get(m.agent.id) ?? [];
    if (list.some((r) => r.id === m.id)) return;
    list.push(inboundRowOf(m));
    this.rows.set(m.agent.id, list);
    this.wake(m.agent.id);
  }

  /** Remembers each agent's handle (from `session` or `heartbeat`) for the tables call. */
  setHandle(agentId: string, handle: string): void {
    this.handles.set(agentId, handle);
  }

  async pendingRows(agentId: string): Promise<InboundRow[]> {
    const s = await this.state.agent(agentId);
    const followUps = s.followUps ?? [];
    const carried = new Set(followUps.flatMap((f) => f.carries));
    const fresh = (this.rows.get(agentId) ?? []).filter((r) => !this.handled.has(r.id) && !carried.has(r.id));
    const due = followUps.length > 0 || fresh.length > 0;
    const notes = due && s.notes ? [{ id: localId('note', JSON.stringify(s.notes)), tables: s.notes }] : [];
    return [...followUps.map((f) => f.row), ...notes, ...fresh];
  }

  async markDelivered(agentId: string, rowIds: string[]): Promise<void> {
    const ids = await this.serviceIds(agentId, rowIds);
    if (ids.length === 0) return;
    try {
      await this.client.turn(agentId, ids);
      this.started.set(`${agentId}:${ids.join(',')}`, Date.now());
    } catch (error) {
      // The working row is a courtesy: the turn goes on, and the answer marks the rows handled.
      this.log(`could not start the turn for ${agentId}: ${(error as Error).message}`);
    }
  }

  async post(post: OutboundPost): Promise<void> {
    const ids = await this.serviceIds(post.agentId, post.meta.turn);
    if (post.kind === 'working') {
      // The turn's start already showed the working row; it is shown again only once it may have lapsed.
      const key = `${post.agentId}:${ids.join(',')}`;
      if (ids.length === 0 || Date.now() - (this.started.get(key) ?? 0) < WORKING_FRESH_MS) return;
      await this.client.turn(post.agentId, ids);
      this.started.set(key, Date.now());
      return;
    }
    try {
      await this.answer(post, ids);
    } catch (error) {
      // A refusal a retry cannot fix (the agent was deleted in the app, say) must not block the outbox;
      // a revoked connector or a network failure keeps the answer queued.
      if (!(error instanceof HostApiError) || !error.permanent || error.code === 'connector_revoked')
        throw error;
      this.log(
        `the service refused an answer for ${post.agentId} (${error.code}: ${error.message}); dropped`,
      );
    }
  }

  async waitForRows(agentId: string, ms: number, signal: AbortSignal): Promise<void> {
    if ((await this.pendingRows(agentId)).length > 0 || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const set = this.waiters.get(agentId) ?? new Set();
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
      this.waiters.set(agentId, set);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private wake(agentId: string): void {
    for (const done of [...(this.waiters.get(agentId) ?? [])]) done();
  }

  // The service's row ids behind a turn: a follow-up stands for the person's rows it carries on.
  private async serviceIds(agentId: string, rowIds: string[]): Promise<string[]> {
    const followUps = (await this.state.agent(agentId)).followUps ?? [];
    const carried = new Map(followUps.map((f) => [f.row.id, f.carries]));
    const ids = rowIds.flatMap((id) => carried.get(id) ?? (isLocal(id) ? [] : [id]));
    return [...new Set(ids)];
  }

  private async handleOf(agentId: string): Promise<string | undefined> {
    return this.handles.get(agentId) ?? (await this.state.agent(agentId)).handle;
  }

  private async answer(post: OutboundPost, ids: string[]): Promise<void> {
    const { agentId } = post;
    const saved = await this.state.agent(agentId);
    const handle = await this.handleOf(agentId);
    const agentRef = handle ? { agent: handle } : {};
    let text = post.text;
    let next: Record<string, unknown> | undefined;
    let failed: unknown[] = [];
    const lines = post.meta.tables === undefined ? '' : linesOf(post.meta.tables);
    if (lines !== '') {
      const r = await refusedAsData(this.client.tables({ ...agentRef, lines }));
      if ('refused' in r) {
        if (post.meta.read) next = { results: [], failed: [r.refused] };
        else failed = [r.refused];
      } else if (post.meta.read) {
        next = {
          results: r.results,
          failed: r.failed,
          ...(r.pending.length > 0 ? { pending: r.pending } : {}),
        };
      } else failed = r.failed;
    }
    if (!post.meta.read && FENCED_TABLES.test(text)) {
      const r = await refusedAsData(this.client.tables({ ...agentRef, reply: text }));
      if ('refused' in r) failed = [...failed, r.refused];
      else if ('read' in r) next = { note: r.note };
      else {
        text = r.text;
        failed = [...failed, ...r.events];
      }
    }
    const reads = (saved.readsInRow ?? 0) + 1;
    if (next && reads <= MAX_READS_IN_A_ROW) {
      const holdings = await refusedAsData(this.client.tables(agentRef));
      const held = 'refused' in holdings ? {} : { held: holdings.held, tables: holdings.tables };
      const row: InboundRow = {
        id: localId('read', post.id),
        tables: { ...next, ...held },
      };
      await this.state.update(agentId, (s) => ({
        ...s,
        readsInRow: reads,
        followUps: [
          ...(s.followUps ?? []).filter((f) => f.row.id !== row.id && !post.meta.turn.includes(f.row.id)),
          { row, carries: ids },
        ],
      }));
      this.markHandled(agentId, ids);
      this.wake(agentId);
      return;
    }
    if (next && text.trim() === '')
      text = `${saved.name ?? 'The agent'} kept reading its tables without answering.`;
    const split = splitAnswer(text);
    const body =
      split.text === '' && !split.lines ? `${saved.name ?? 'The agent'} answered nothing.` : split.text;
    const request = {
      agent_id: agentId,
      idempotency_key: `a2a.${post.id}`.slice(0, 128),
      ...(ids.length > 0 ? { turn: ids } : {}),
    };
    const screen = { ...request, text: clip(body), ...(split.lines ? { lines: split.lines } : {}) };
    const { deadline } = post.meta;
    // A deadline the service does not keep: the agent reads why with its next turn (ADR 0305).
    const notSet = (why: string, code: string) => {
      failed = [...failed, { error: `Your deadline was not set: ${why}`, code }];
    };
    // A deadline belongs to the screen: it goes only with one (ADR 0260).
    if (deadline && !split.lines) notSet('a deadline goes with a screen.', 'deadline_without_screen');
    try {
      await this.replyScreen(split.lines && deadline ? { ...screen, deadline } : screen, text, (refusal) => {
        if (deadline) notSet(`its screen was refused (${refusal.message})`, refusal.code);
      });
    } catch (error) {
      const refused = error instanceof HostApiError && error.code.startsWith('invalid_deadline');
      // `conflict` with a deadline: an earlier attempt of this post (its answer lost) was refused the deadline and
      // then written without it; the key holds that screen, which the resend below replays.
      const conflict = error instanceof HostApiError && error.code === 'conflict';
      if (!(split.lines && deadline && (refused || conflict))) throw error;
      // Nothing of the refused reply was written: the screen goes again without the deadline, open.
      notSet(
        refused ? error.message : 'the service refused it; the screen was shown without it.',
        error.code,
      );
      await this.replyScreen(screen, text);
    }
    const notesId = saved.notes ? localId('note', JSON.stringify(saved.notes)) : undefined;
    const unchanged =
      !saved.readsInRow &&
      !saved.followUps &&
      failed.length === 0 &&
      !(notesId && post.meta.turn.includes(notesId));
    // Most answers change nothing here: no file write for them (each write is an fsync).
    if (!unchanged)
      await this.state.update(agentId, (s) => {
        const kept: typeof s = { ...s, readsInRow: 0 };
        kept.followUps = (s.followUps ?? []).filter((f) => !post.meta.turn.includes(f.row.id));
        if (kept.followUps.length === 0) delete kept.followUps;
        if (notesId && post.meta.turn.includes(notesId)) delete kept.notes;
        // Failures the agent was not told of yet stay: this answer's are added after them.
        const untold = Array.isArray(kept.notes?.failed) ? (kept.notes.failed as unknown[]) : [];
        if (failed.length > 0) kept.notes = { failed: [...untold, ...failed] };
        return kept;
      });
    this.markHandled(agentId, ids);
  }

  /**
   * Sends `screen`. A screen the service refuses still reaches the person, as the agent wrote it: `text` goes
   * as words instead, and `onRefused` hears why.
   */
  private async replyScreen(
    screen: Parameters<HostClient['reply']>[0],
    text: string,
    onRefused?: (refusal: HostApiError) => void,
  ): Promise<void> {
    try {
      await this.client.reply(screen);
    } catch (error) {
      if (!(error instanceof HostApiError) || error.code !== 'invalid_lines') throw error;
      onRefused?.(error);
      const { lines: _lines, deadline: _deadline, ...words } = screen;
      await this.client.reply({ ...words, text: clip(text) });
    }
  }

  private markHandled(agentId: string, ids: string[]): void {
    for (const id of ids) this.handled.add(id);
    const left = (this.rows.get(agentId) ?? []).filter((r) => !this.handled.has(r.id));
    this.rows.set(agentId, left);
  }
}
