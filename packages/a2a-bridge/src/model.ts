// The bridge's own version-neutral view of A2A messages, tasks and stream events.

/** Task states as the bridge names them (0.3 spelling; 1.0's `TASK_STATE_X` maps onto these). */
export type TaskState =
  | 'submitted'
  | 'working'
  | 'input-required'
  | 'completed'
  | 'failed'
  | 'canceled'
  | 'rejected'
  | 'auth-required'
  | 'unknown';

/** One part of a message or artifact. */
export type Part =
  | { kind: 'text'; text: string; metadata?: Record<string, unknown> }
  | { kind: 'file'; url?: string; bytes?: string; name?: string; mediaType?: string }
  | { kind: 'data'; data: unknown; metadata?: Record<string, unknown> };

/** A message either way. */
export interface Message {
  messageId: string;
  role: 'user' | 'agent';
  parts: Part[];
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
}

/** An artifact of a task. */
export interface Artifact {
  artifactId: string;
  parts: Part[];
}

/** A task as read from the server. */
export interface Task {
  id: string;
  contextId: string;
  state: TaskState;
  statusMessage?: Message;
  artifacts: Artifact[];
  history: Message[];
}

/** What a send, a stream or a resubscribe yields, in either version. */
export type A2AEvent =
  | { type: 'task'; task: Task }
  | { type: 'message'; message: Message }
  | { type: 'status'; taskId: string; contextId: string; state: TaskState; message?: Message }
  | { type: 'artifact'; taskId: string; artifact: Artifact; append: boolean };

/** States that end a turn: the answer (or the question, or the reason) can be written. */
export const TURN_END_STATES: ReadonlySet<TaskState> = new Set([
  'completed',
  'failed',
  'canceled',
  'rejected',
  'input-required',
  'auth-required',
]);
