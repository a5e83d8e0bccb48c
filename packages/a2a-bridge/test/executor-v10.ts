// The scripted agent as an @a2a-js/sdk 1.3.x executor (1.0 shapes: $case parts, numeric enums).
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { type SeenMessage, script, sleep } from './agent-script.js';

const STATE10: Record<string, TaskState> = {
  working: TaskState.TASK_STATE_WORKING,
  'input-required': TaskState.TASK_STATE_INPUT_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  rejected: TaskState.TASK_STATE_REJECTED,
  'auth-required': TaskState.TASK_STATE_AUTH_REQUIRED,
  canceled: TaskState.TASK_STATE_CANCELED,
};

function part10(text: string) {
  return {
    content: { $case: 'text' as const, value: text },
    metadata: undefined,
    filename: '',
    mediaType: '',
  };
}

function message10(text: string, ctx: { taskId: string; contextId: string }) {
  return {
    messageId: randomUUID(),
    contextId: ctx.contextId,
    taskId: ctx.taskId,
    role: Role.ROLE_AGENT,
    parts: [part10(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function executor10(seen: SeenMessage[]): AgentExecutor {
  return {
    async execute(rc: RequestContext, bus: ExecutionEventBus) {
      const m = rc.userMessage;
      const texts: string[] = [];
      const textMetadata: (Record<string, unknown> | undefined)[] = [];
      const data: unknown[] = [];
      for (const p of m.parts) {
        if (p.content?.$case === 'text') {
          texts.push(p.content.value);
          textMetadata.push(p.metadata);
        } else if (p.content?.$case === 'data') data.push(p.content.value);
      }
      seen.push({
        messageId: m.messageId,
        taskId: m.taskId || undefined,
        contextId: m.contextId || undefined,
        texts,
        textMetadata,
        data,
      });
      const ctx = { taskId: rc.taskId, contextId: rc.contextId };
      const person = texts.filter((_, i) => textMetadata[i]?.svc !== 'channel_guide').join('\n');
      const steps = script(person, rc.task !== undefined);
      if (steps[0] && 'message' in steps[0]) {
        bus.publish({ kind: 'message', data: message10(steps[0].message, ctx) });
        bus.finished();
        return;
      }
      const status = (state: TaskState, text?: string) => ({
        state,
        message: text === undefined ? undefined : message10(text, ctx),
        timestamp: new Date().toISOString(),
      });
      bus.publish({
        kind: 'task',
        data: {
          id: rc.taskId,
          contextId: rc.contextId,
          status: rc.task?.status ?? status(TaskState.TASK_STATE_SUBMITTED),
          artifacts: rc.task?.artifacts ?? [],
          history: [...(rc.task?.history ?? []), m],
          metadata: undefined,
        },
      });
      for (const step of steps) {
        if ('wait' in step) await sleep(step.wait);
        else if ('state' in step) {
          bus.publish({
            kind: 'statusUpdate',
            data: { ...ctx, status: status(STATE10[step.state]!, step.text), metadata: undefined },
          });
        } else if ('artifact' in step || 'file' in step) {
          const parts =
            'file' in step
              ? [
                  {
                    content: { $case: 'url' as const, value: step.file },
                    metadata: undefined,
                    filename: 'report.pdf',
                    mediaType: 'application/pdf',
                  },
                ]
              : [part10(step.artifact)];
          bus.publish({
            kind: 'artifactUpdate',
            data: {
              ...ctx,
              artifact: {
                artifactId: 'artifactId' in step ? step.artifactId : 'f1',
                name: '',
                description: '',
                parts,
                metadata: undefined,
                extensions: [],
              },
              append: 'append' in step ? step.append : false,
              lastChunk: false,
              metadata: undefined,
            },
          });
        }
      }
      bus.finished();
    },
    async cancelTask() {},
  };
}
