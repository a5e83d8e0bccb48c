// The scripted agent as an @a2a-js/sdk 0.3.14 executor (kind-tagged shapes).
import { randomUUID } from 'node:crypto';
import { type SeenMessage, script, sleep } from './agent-script.js';

type Any03 = Record<string, unknown>;

export function executor03(seen: SeenMessage[]) {
  return {
    async execute(
      rc: { userMessage: Any03; taskId: string; contextId: string; task?: Any03 },
      bus: { publish(e: unknown): void; finished(): void },
    ) {
      const m = rc.userMessage as { messageId: string; taskId?: string; contextId?: string; parts: Any03[] };
      const texts: string[] = [];
      const textMetadata: (Record<string, unknown> | undefined)[] = [];
      const data: unknown[] = [];
      for (const p of m.parts) {
        if (p.kind === 'text') {
          texts.push(p.text as string);
          textMetadata.push(p.metadata as Record<string, unknown> | undefined);
        } else if (p.kind === 'data') data.push(p.data);
      }
      seen.push({
        messageId: m.messageId,
        taskId: m.taskId,
        contextId: m.contextId,
        texts,
        textMetadata,
        data,
      });
      const ctx = { taskId: rc.taskId, contextId: rc.contextId };
      const msg = (text: string) => ({
        kind: 'message',
        role: 'agent',
        messageId: randomUUID(),
        parts: [{ kind: 'text', text }],
        ...ctx,
      });
      const person = texts.filter((_, i) => textMetadata[i]?.svc !== 'channel_guide').join('\n');
      const steps = script(person, rc.task !== undefined);
      if (steps[0] && 'message' in steps[0]) {
        bus.publish(msg(steps[0].message));
        bus.finished();
        return;
      }
      bus.publish({
        kind: 'task',
        id: rc.taskId,
        contextId: rc.contextId,
        status: rc.task?.status ?? { state: 'submitted', timestamp: new Date().toISOString() },
        artifacts: (rc.task?.artifacts as unknown[]) ?? [],
        history: [...((rc.task?.history as unknown[]) ?? []), m],
      });
      for (const step of steps) {
        if ('wait' in step) await sleep(step.wait);
        else if ('state' in step) {
          const final = step.state !== 'working';
          bus.publish({
            kind: 'status-update',
            ...ctx,
            status: {
              state: step.state,
              timestamp: new Date().toISOString(),
              ...(step.text ? { message: msg(step.text) } : {}),
            },
            final,
          });
        } else if ('artifact' in step || 'file' in step) {
          const parts =
            'file' in step
              ? [{ kind: 'file', file: { uri: step.file, name: 'report.pdf', mimeType: 'application/pdf' } }]
              : [{ kind: 'text', text: step.artifact }];
          bus.publish({
            kind: 'artifact-update',
            ...ctx,
            artifact: { artifactId: 'artifactId' in step ? step.artifactId : 'f1', parts },
            append: 'append' in step ? step.append : false,
          });
        }
      }
      bus.finished();
    },
    async cancelTask() {},
  };
}

/** A running test server with its agents mounted under `/stream`, `/poll` and `/keyed`. */
