// Folding A2A events into a view of the task, and the view into the row the person reads.
import {
  type A2AEvent,
  type Artifact,
  type Message,
  type Part,
  type TaskState,
  TURN_END_STATES,
} from './model.js';

/** What the bridge knows of a task so far. */
export interface TaskView {
  taskId?: string;
  contextId?: string;
  state: TaskState;
  artifacts: Artifact[];
  /** The message of the latest status, any state. */
  lastStatusMessage?: Message;
  /** The message that came with the state that ended the turn (completed, failed, input-required...). */
  finalStatusMessage?: Message;
  history: Message[];
  /** The agent answered with a message instead of a task. */
  message?: Message;
  /** The agent refused the call itself (a JSON-RPC or HTTP error): what it said. */
  refusal?: string;
}

/** The row a view becomes. */
export interface Answer {
  kind: 'answer' | 'status';
  text: string;
  /** `lines` of each `{svc:"tables", lines}` data part the agent sent. */
  tables: unknown[];
}

/**
 * An empty view (nothing heard yet).
 *
 * @example
 * ```ts
 * applyEvent(emptyTaskView(), event);
 * ```
 */
export function emptyTaskView(): TaskView {
  return { state: 'unknown', artifacts: [], history: [] };
}

function setStatus(view: TaskView, state: TaskState, message: Message | undefined): void {
  view.state = state;
  if (message) view.lastStatusMessage = message;
  if (TURN_END_STATES.has(state)) view.finalStatusMessage = message;
}

/**
 * Folds one event into the view (a new view; the old one is left alone). A task snapshot replaces what
 * it carries; an artifact update with `append` extends the artifact's parts.
 *
 * @example
 * ```ts
 * let view = emptyTaskView();
 * for await (const e of client.stream(message)) view = applyEvent(view, e);
 * ```
 */
export function applyEvent(previous: TaskView, event: A2AEvent): TaskView {
  const view: TaskView = {
    ...previous,
    artifacts: previous.artifacts.map((a) => ({ ...a, parts: [...a.parts] })),
  };
  switch (event.type) {
    case 'task': {
      const t = event.task;
      view.taskId = t.id;
      view.contextId = t.contextId;
      // A snapshot that carries no artifacts (a stream's opening event) does not erase ones seen.
      if (t.artifacts.length > 0 || view.artifacts.length === 0) view.artifacts = t.artifacts;
      if (t.history.length > 0) view.history = t.history;
      setStatus(view, t.state, t.statusMessage);
      break;
    }
    case 'status':
      view.taskId ??= event.taskId;
      setStatus(view, event.state, event.message);
      break;
    case 'artifact': {
      view.taskId ??= event.taskId;
      const existing = view.artifacts.find((a) => a.artifactId === event.artifact.artifactId);
      if (existing && event.append) existing.parts.push(...event.artifact.parts);
      else if (existing) existing.parts = [...event.artifact.parts];
      else view.artifacts.push({ artifactId: event.artifact.artifactId, parts: [...event.artifact.parts] });
      break;
    }
    case 'message':
      view.message = event.message;
      view.state = 'completed';
      break;
  }
  return view;
}

/** Whether the view has reached a state that ends the turn. */
export function endsTurn(view: TaskView): boolean {
  return view.message !== undefined || view.refusal !== undefined || TURN_END_STATES.has(view.state);
}

// Text parts become the message; a file part shows as its link; data parts are skipped.
function partsText(parts: Part[], joiner: string): string {
  const pieces: string[] = [];
  for (const p of parts) {
    if (p.kind === 'text') pieces.push(p.text);
    else if (p.kind === 'file')
      pieces.push(`${joiner === '' ? '\n' : ''}${p.url ?? `[file ${p.name ?? 'without a name'}]`}`);
  }
  return pieces.join(joiner).trim();
}

function tablesOf(parts: Part[]): unknown[] {
  return parts.flatMap((p) => {
    if (p.kind !== 'data' || typeof p.data !== 'object' || p.data === null) return [];
    const d = p.data as { svc?: unknown; lines?: unknown };
    return d.svc === 'tables' && d.lines !== undefined ? [d.lines] : [];
  });
}

const messageText = (m: Message | undefined): string => (m ? partsText(m.parts, '\n') : '');

/**
 * The screen's deadline the agent sent as the data part `{svc:"deadline", in|at, default, escalate}`
 * (ADR 0260), without its `svc` key; the last one wins. Undefined when there is none.
 *
 * @example
 * ```ts
 * deadlineOf(view); // { in: '10m', default: { lunch: 'Soup' } }
 * ```
 */
export function deadlineOf(view: TaskView): Record<string, unknown> | undefined {
  const parts = [
    ...(view.message?.parts ?? []),
    ...view.artifacts.flatMap((a) => a.parts),
    ...(view.finalStatusMessage?.parts ?? []),
  ];
  let found: Record<string, unknown> | undefined;
  for (const p of parts) {
    if (p.kind !== 'data' || typeof p.data !== 'object' || p.data === null) continue;
    const { svc, ...rest } = p.data as Record<string, unknown>;
    if (svc === 'deadline') found = rest;
  }
  return found;
}

/**
 * The row the person reads for a view that ended the turn, per doc3: the answer is the task's text
 * artifacts, then the final status message if it adds something; with nothing else, the last status
 * message or the last history message. Failed, rejected and canceled tasks give one line saying so,
 * then the agent's reason; `auth-required` says the agent needs a sign-in first.
 *
 * @example
 * ```ts
 * answerFor(view, 'Weather').text; // 'echo: hello'
 * ```
 */
export function answerFor(view: TaskView, agentName: string): Answer {
  if (view.refusal !== undefined) {
    return { kind: 'status', text: `${agentName} could not take the message.\n${view.refusal}`, tables: [] };
  }
  if (view.message) {
    return { kind: 'answer', text: messageText(view.message), tables: tablesOf(view.message.parts) };
  }
  const artifactText = view.artifacts
    .map((a) => partsText(a.parts, ''))
    .filter((t) => t !== '')
    .join('\n\n');
  const finalText = messageText(view.finalStatusMessage);
  const reason = finalText || messageText(view.lastStatusMessage);
  const tables = [
    ...view.artifacts.flatMap((a) => tablesOf(a.parts)),
    ...(view.finalStatusMessage ? tablesOf(view.finalStatusMessage.parts) : []),
  ];
  const withReason = (line: string) => ({
    kind: 'status' as const,
    text: reason ? `${line}\n${reason}` : line,
    tables,
  });
  switch (view.state) {
    case 'failed':
      return withReason(`${agentName} could not finish the task.`);
    case 'rejected':
      return withReason(`${agentName} declined the task.`);
    case 'canceled':
      return withReason(`${agentName} canceled the task.`);
    case 'auth-required':
      return withReason(`${agentName} needs you to sign in first.`);
    default:
      break;
  }
  if (artifactText !== '') {
    const adds = finalText !== '' && !artifactText.includes(finalText);
    return { kind: 'answer', text: adds ? `${artifactText}\n\n${finalText}` : artifactText, tables };
  }
  const lastAgent = [...view.history].reverse().find((m) => m.role === 'agent');
  const text = reason || messageText(lastAgent);
  if (text !== '' || tables.length > 0) return { kind: 'answer', text, tables };
  return { kind: 'answer', text: `${agentName} finished without an answer.`, tables };
}
