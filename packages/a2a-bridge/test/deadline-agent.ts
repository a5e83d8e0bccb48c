// A real 1.0 A2A agent (@a2a-js/sdk) that answers with a screen and a deadline data part (ADR 0260), by the
// first word of the person's text:
// - `message`: one agent message: the screen as a text part, then `{svc:"deadline", ...}` as a data part;
// - `artifact`: a task whose artifact holds the same two parts, then completed;
// - `question`: a task that asks (input-required) with the same two parts in its status message;
// - `pizza`: one agent message: the same screen with a deadline whose default (Pizza) is not one of the
//   options, which the service refuses;
// - `chat`: one agent message with plain text (no screen) and the deadline data part;
// - `hello`: one agent message with plain text and no deadline.
// It records what it receives: the person's words (`seen`) and each request's text and data parts (`received`).
// Binds to 127.0.0.1 only.
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { serveAgent } from './serve-agent.js';

/** The screen the agent sends, as the fixtures send screens: a fenced `svc` block after the chat text. */
export const SCREEN_LINES = 'choose@lunch "Lunch?" Soup|Salad';
export const SCREEN_TEXT = `Pick your lunch.\n\`\`\`svc\n${SCREEN_LINES}\n\`\`\``;
/** The chat line of the `chat` answer (no screen). */
export const CHAT_TEXT = 'Lunch is at noon.';
/** The chat line of the `hello` answer (no screen, no deadline). */
export const HELLO_TEXT = 'Hello.';
/** The data part the agent adds to its answer. */
export const DEADLINE_PART = { svc: 'deadline', in: '10m', default: { lunch: 'Soup' } };
/** The data part of the `pizza` answer: its default is not one of the screen's options. */
export const PIZZA_PART = { svc: 'deadline', in: '10m', default: { lunch: 'Pizza' } };

/** One request the agent received: its conversation, the person's texts (no channel guide), its data parts. */
export interface DeadlineAgentReceived {
  contextId: string;
  texts: string[];
  data: Record<string, unknown>[];
}

const text = (value: string) => ({
  content: { $case: 'text' as const, value },
  metadata: undefined,
  filename: '',
  mediaType: '',
});
const data = (value: Record<string, unknown>) => ({
  content: { $case: 'data' as const, value },
  metadata: undefined,
  filename: '',
  mediaType: '',
});
type Part10 = ReturnType<typeof text> | ReturnType<typeof data>;

function executor(seen: string[], received: DeadlineAgentReceived[]): AgentExecutor {
  return {
    async execute(rc: RequestContext, bus: ExecutionEventBus) {
      const parts = rc.userMessage.parts as unknown as {
        content?: { $case: string; value: unknown };
        metadata?: Record<string, unknown>;
      }[];
      const texts = parts
        .filter((p) => p.content?.$case === 'text' && p.metadata?.svc !== 'channel_guide')
        .map((p) => String(p.content!.value));
      const words = texts.join(' ').trim();
      seen.push(words);
      received.push({
        contextId: rc.contextId,
        texts,
        data: parts
          .filter((p) => p.content?.$case === 'data')
          .map((p) => p.content!.value as Record<string, unknown>),
      });
      const ctx = { taskId: rc.taskId, contextId: rc.contextId };
      const message = (reply: Part10[], taskId: string) => ({
        messageId: randomUUID(),
        contextId: rc.contextId,
        taskId,
        role: Role.ROLE_AGENT,
        parts: reply,
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      });
      const screen = [text(SCREEN_TEXT), data(DEADLINE_PART)];
      const word = words.split(/\s+/)[0];
      const replies: Record<string, Part10[]> = {
        message: screen,
        chat: [text(CHAT_TEXT), data(DEADLINE_PART)],
        pizza: [text(SCREEN_TEXT), data(PIZZA_PART)],
        hello: [text(HELLO_TEXT)],
      };
      const reply = Object.hasOwn(replies, word!) ? replies[word!] : undefined;
      if (reply) {
        bus.publish({ kind: 'message', data: message(reply, '') as never });
        bus.finished();
        return;
      }
      const status = (state: TaskState, reply?: Part10[]) => ({
        state,
        message: reply === undefined ? undefined : message(reply, rc.taskId),
        timestamp: new Date().toISOString(),
      });
      bus.publish({
        kind: 'task',
        data: {
          id: rc.taskId,
          contextId: rc.contextId,
          status: status(TaskState.TASK_STATE_SUBMITTED),
          artifacts: [],
          history: [rc.userMessage],
          metadata: undefined,
        } as never,
      });
      bus.publish({
        kind: 'statusUpdate',
        data: { ...ctx, status: status(TaskState.TASK_STATE_WORKING), metadata: undefined } as never,
      });
      if (word === 'question') {
        bus.publish({
          kind: 'statusUpdate',
          data: {
            ...ctx,
            status: status(TaskState.TASK_STATE_INPUT_REQUIRED, screen),
            metadata: undefined,
          } as never,
        });
      } else {
        bus.publish({
          kind: 'artifactUpdate',
          data: {
            ...ctx,
            artifact: {
              artifactId: 'lunch',
              name: '',
              description: '',
              parts: screen,
              metadata: undefined,
              extensions: [],
            },
            append: false,
            lastChunk: true,
            metadata: undefined,
          } as never,
        });
        bus.publish({
          kind: 'statusUpdate',
          data: { ...ctx, status: status(TaskState.TASK_STATE_COMPLETED), metadata: undefined } as never,
        });
      }
      bus.finished();
    },
    async cancelTask() {},
  };
}

/**
 * Starts the agent on 127.0.0.1; `url` is its card's base. `seen` lists the person's words of each call,
 * `received` each call's texts and data parts.
 */
export async function startDeadlineAgent(streaming = true) {
  const seen: string[] = [];
  const received: DeadlineAgentReceived[] = [];
  const served = await serveAgent(
    {
      name: 'Lunch',
      description: 'Asks what you want for lunch, with a deadline',
      skill: { id: 'lunch', name: 'Lunch', description: 'Asks what you want for lunch' },
    },
    executor(seen, received),
    streaming,
  );
  return { ...served, seen, received };
}
