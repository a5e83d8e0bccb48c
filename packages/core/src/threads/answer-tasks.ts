// svc_answers as a task (MCP Tasks extension, ADR 0265): the rules of a task's life, one place for every
// adapter. A task waits on one thread; a poll claims that thread's answers into the task row in one
// transaction, so any instance (or the same one after a restart) answers it, and its answers go out once.
import { type AgentRef, pickAgent, toAgentRef } from '@screen-service/registry/agents';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord, AnswerTaskRecord, MessageRecord, Store } from '@screen-service/registry/model';
import { whileLive } from './claim-guard.js';
import type { Answer } from './thread-core.js';

/** How long a task lives (a day) and how often a client should poll it (2 s), unless the server says else. */
export const ANSWER_TASK_DEFAULTS = { ttlMs: 24 * 60 * 60 * 1000, pollMs: 2000 } as const;

/** A task as an adapter shows it: its state and, once completed, exactly what `answers` would have given. */
export interface AnswerTaskView {
  id: string;
  status: AnswerTaskRecord['status'];
  createdAt: number;
  updatedAt: number;
  ttlMs: number;
  pollMs: number;
  result?: { agent: AgentRef; answers: Answer[] };
}

/** Start, poll and cancel a task-augmented `answers` call; every call is scoped by the caller's principal. */
export interface AnswerTasks {
  /** Creates the task (stored before it returns): `input` is `answers`' `screen_id` and `agent`. */
  start(p: ConnectionPrincipal, input: { screen_id?: string; agent?: string }): Promise<AnswerTaskView>;
  /** The task now: claims its thread's answers into it first when it is still working. */
  get(p: ConnectionPrincipal, id: string): Promise<AnswerTaskView>;
  /** Stops a working task (it claims nothing after); a settled task is answered as it stands. */
  cancel(p: ConnectionPrincipal, id: string): Promise<AnswerTaskView>;
}

/** What the task rules borrow from the thread operations (one resolution of `screen_id`/`agent`, one claim). */
export interface AnswerTaskDeps {
  store: Store;
  now: () => number;
  newId: (prefix: string) => string;
  pageVersion: () => number;
  /** The thread and seq an `answers` call with this input reads after (refusals as `answers` gives them). */
  target(
    p: ConnectionPrincipal,
    input: { screen_id?: string; agent?: string },
  ): Promise<{
    agent: AgentRecord;
    afterSeq: number;
  }>;
  toAnswers(rows: MessageRecord[]): Promise<Answer[]>;
  /** Answers one task claims at most (as one `answers` call). */
  limit: number;
  ttlMs?: number;
  pollMs?: number;
}

/** The thread an `answers` call (or task) reads and the seq it reads after: `screen_id`'s, else `agent`'s. */
export async function resolveAnswersTarget(
  store: Store,
  served: (p: ConnectionPrincipal) => Promise<AgentRecord[]>,
  p: ConnectionPrincipal,
  input: { screen_id?: string; agent?: string },
): Promise<{ agent: AgentRecord; afterSeq: number }> {
  const list = await served(p);
  if (input.screen_id === undefined) return { agent: pickAgent(list, input.agent), afterSeq: 0 };
  const screen = await store.threads.getScreen(input.screen_id);
  const owner = screen && list.find((a) => a.id === screen.agentId && screen.userId === p.userId);
  if (!screen || !owner) {
    const message = `No screen ${input.screen_id} in a thread this connection serves.`;
    throw new ServiceError('SCREEN_NOT_FOUND', message, { field: 'screen_id' });
  }
  const agent = input.agent ? pickAgent(list, input.agent) : owner;
  if (agent.id !== owner.id) {
    const message = `Screen ${input.screen_id} is not in ${agent.handle}'s thread.`;
    throw new ServiceError('SCREEN_NOT_FOUND', message, { field: 'screen_id' });
  }
  return { agent, afterSeq: screen.messageSeq };
}

const notFound = (id: string) =>
  new ServiceError(
    'NOT_FOUND',
    `No task ${id} for this connection: it expired, or another connection made it. Call svc_answers again.`,
    { field: 'taskId' },
  );

/**
 * Creates the task rules. A task is reachable only by the connection (and so the user) that made it; past its
 * TTL it is gone. Expired tasks are deleted as new ones are made (a bounded batch each time).
 *
 * @example
 * ```ts
 * const task = await tasks.start(principal, { screen_id });
 * const later = await tasks.get(principal, task.id); // 'working', then 'completed' with result
 * ```
 */
export function createAnswerTasks(deps: AnswerTaskDeps): AnswerTasks {
  const { store } = deps;
  const ttlMs = deps.ttlMs ?? ANSWER_TASK_DEFAULTS.ttlMs;
  const pollMs = deps.pollMs ?? ANSWER_TASK_DEFAULTS.pollMs;

  const own = async (p: ConnectionPrincipal, id: string) => {
    const task = typeof id === 'string' && id !== '' ? await store.tasks.get(id) : null;
    const mine = task && task.userId === p.userId && task.connectorId === p.connectorId;
    if (!task || !mine || task.expiresAt <= deps.now()) throw notFound(String(id));
    return task;
  };

  const view = async (task: AnswerTaskRecord): Promise<AnswerTaskView> => {
    const base = {
      id: task.id,
      status: task.status,
      createdAt: task.createdAt,
      updatedAt: task.updatedAt,
      ttlMs,
      pollMs,
    };
    if (task.status !== 'completed') return base;
    const agent = await store.agents.get(task.agentId);
    if (!agent) throw notFound(task.id);
    // Rows a retention sweep removed since are left out, as they would be from the thread.
    const rows = (await Promise.all(task.messageIds.map((m) => store.threads.getMessage(m)))).filter(
      (r): r is MessageRecord => r !== null,
    );
    return { ...base, result: { agent: toAgentRef(agent), answers: await deps.toAnswers(rows) } };
  };

  // One transaction: the task row locked, the thread's answers claimed, the task settled with them. A second
  // poller (another instance) waits on the lock and then finds the task completed: nothing is claimed twice.
  const claimInto = (id: string) =>
    store.transaction(async (tx) => {
      const task = await tx.tasks.get(id, { forUpdate: true });
      if (task?.status !== 'working') return task;
      const at = deps.now();
      // Guarded (ADR 0298): claimed only while the task's connection is live at the claim itself.
      const rows = await tx.threads.claimAnswers({
        agentId: task.agentId,
        userId: task.userId,
        afterSeq: task.afterSeq,
        limit: deps.limit,
        at,
        version: deps.pageVersion(),
        guard: { connectorId: task.connectorId },
      });
      if (rows.length === 0) return task;
      const ids = rows.map((r) => r.id);
      await tx.tasks.settle(id, 'completed', ids, at);
      return { ...task, status: 'completed' as const, messageIds: ids, updatedAt: at };
    });

  return {
    async start(p, input) {
      const { agent, afterSeq } = await deps.target(p, input);
      const at = deps.now();
      const id = deps.newId('tsk_');
      await store.tasks.deleteExpired(at, 100);
      await store.tasks.create({
        id,
        userId: p.userId,
        connectorId: p.connectorId,
        agentId: agent.id,
        afterSeq,
        createdAt: at,
        expiresAt: at + ttlMs,
      });
      return view({
        id,
        userId: p.userId,
        connectorId: p.connectorId,
        agentId: agent.id,
        afterSeq,
        status: 'working',
        messageIds: [],
        createdAt: at,
        updatedAt: at,
        expiresAt: at + ttlMs,
      });
    },
    async get(p, id) {
      const task = await own(p, id);
      if (task.status !== 'working') return view(task);
      // A connection removed while its task waits must not take (and so hide) what the person sends next:
      // the claim's guard (ADR 0298) checks it at the claim itself.
      return view((await whileLive(() => claimInto(task.id))) ?? task);
    },
    async cancel(p, id) {
      const task = await own(p, id);
      if (task.status !== 'working') return view(task);
      const at = deps.now();
      if (await store.tasks.settle(task.id, 'cancelled', [], at)) {
        return view({ ...task, status: 'cancelled', updatedAt: at });
      }
      return view((await store.tasks.get(task.id)) ?? task);
    },
  };
}
