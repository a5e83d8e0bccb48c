// A task-augmented svc_answers (MCP Tasks extension, issue 41, ADR 0265): its durable row and repository.
import type { Row } from './rows.js';

/** Where a task stands: waiting for an answer, answered (its rows claimed into it), or cancelled. */
export type AnswerTaskStatus = 'working' | 'completed' | 'cancelled';

/** One task: whose it is (the user and the connection that made it), which thread it waits on, what it got. */
export interface AnswerTaskRecord {
  /** Unguessable (`tsk_` and a random name): the only handle a client holds. */
  id: string;
  userId: string;
  connectorId: string;
  agentId: string;
  /** Only answers after this seq count (the `screen_id` the call named), 0 for any. */
  afterSeq: number;
  status: AnswerTaskStatus;
  /** The answer rows the task claimed, oldest first; empty until it completes. */
  messageIds: string[];
  createdAt: number;
  updatedAt: number;
  /** When the task is gone (its TTL): reads after it treat it as missing, housekeeping deletes it. */
  expiresAt: number;
}

/** A task as the rules create it. */
export type NewAnswerTask = Omit<AnswerTaskRecord, 'status' | 'messageIds' | 'updatedAt'>;

/**
 * Tasks. The store only stores: the rules claim a task's answers and settle it in one transaction
 * (`get` with `forUpdate`, then `threads.claimAnswers`, then `settle`), so a task's answers are claimed once.
 */
export interface AnswerTaskRepository {
  create(task: NewAnswerTask): Promise<void>;
  /** The task, expired or not; `forUpdate` holds its row until the transaction ends (PostgreSQL). */
  get(id: string, options?: { forUpdate?: boolean }): Promise<AnswerTaskRecord | null>;
  /** Moves a working task to `status` with `messageIds` at `at`; false when it was not working. */
  settle(id: string, status: 'completed' | 'cancelled', messageIds: string[], at: number): Promise<boolean>;
  /** Deletes up to `limit` tasks whose `expiresAt` is at or before `at`; how many went. */
  deleteExpired(at: number, limit: number): Promise<number>;
}

/** A `tasks` row of either SQL store. */
export function toAnswerTask(r: Row): AnswerTaskRecord {
  const ids = typeof r.message_ids === 'string' ? JSON.parse(r.message_ids) : r.message_ids;
  return {
    id: r.id as string,
    userId: r.user_id as string,
    connectorId: r.connector_id as string,
    agentId: r.agent_id as string,
    afterSeq: Number(r.after_seq),
    status: r.status as AnswerTaskStatus,
    messageIds: Array.isArray(ids) ? (ids as string[]) : [],
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    expiresAt: Number(r.expires_at),
  };
}
