// A real 1.0 A2A agent (@a2a-js/sdk) that keeps a shopping list in the person's tables through the bridge:
// it writes and reads rows with a data part, answers with a screen, and answers the tap on it.
import { randomUUID } from 'node:crypto';
import { Role } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { serveAgent } from './serve-agent.js';

type Part10 = { content: { $case: 'text'; value: string } | { $case: 'data'; value: unknown } };

const text = (value: string) => ({
  content: { $case: 'text' as const, value },
  metadata: undefined,
  filename: '',
  mediaType: '',
});
const data = (value: unknown) => ({
  content: { $case: 'data' as const, value },
  metadata: undefined,
  filename: '',
  mediaType: '',
});

/** What the agent saw of each message: its person text and its data parts. */
export interface TablesAgentSeen {
  texts: string[];
  data: Record<string, unknown>[];
}

function executor(seen: TablesAgentSeen[]): AgentExecutor {
  return {
    async execute(rc: RequestContext, bus: ExecutionEventBus) {
      const parts = rc.userMessage.parts as unknown as (Part10 & { metadata?: Record<string, unknown> })[];
      const texts = parts
        .filter((p) => p.content.$case === 'text' && p.metadata?.svc !== 'channel_guide')
        .map((p) => p.content.value as string);
      const datas = parts
        .filter((p) => p.content.$case === 'data')
        .map((p) => p.content.value as Record<string, unknown>);
      seen.push({ texts, data: datas });
      const tables = datas.find((d) => d.svc === 'tables');
      const tap = datas.find((d) => d.id === 'pick');
      const words = texts.join(' ');
      let reply: ReturnType<typeof text | typeof data>[];
      if (tap) reply = [text(`You picked ${String(tap.value)}.`)];
      else if (tables?.results) {
        const rows = ((tables.results as { rows: unknown[][] }[])[0]?.rows ?? []).map((r) => String(r[0]));
        reply = [
          text(
            `You have: ${rows.join(', ')}\n\`\`\`svc\nchoose@pick "Which first?" ${[...rows, 'later'].join('|')}\n\`\`\``,
          ),
        ];
      } else if (words.startsWith('remember ')) {
        const item = words.slice('remember '.length).trim();
        // Only the data part: a read; the rows come back on the next message.
        reply = [
          data({
            svc: 'tables',
            lines: ['table create shopping Item:text', `put shopping ${item} Item=${item}`, 'query shopping'],
          }),
        ];
      } else if (words === 'flood') {
        // Writes with an answer, but more lines than one call takes (50): refused, told on the next turn.
        const puts = Array.from({ length: 51 }, (_, i) => `put shopping item${i} Item=thing${i}`);
        reply = [text('Flooding.'), data({ svc: 'tables', lines: puts })];
      } else if (words === 'meals') {
        // Writes through the data part and through a screen's table lines in the same answer (issue 37).
        reply = [
          text('Logged.\n```svc\nput meals tue dish=Pasta kcal=700\n```'),
          data({
            svc: 'tables',
            lines: ['table create meals dish:text kcal:number', 'put meals mon dish=Soup kcal=300'],
          }),
        ];
      } else if (words === 'bad') reply = [text('Trying.\n```svc\nput meals wed kcal=lots\n```')];
      else if (words === 'drop') reply = [text('Dropping Monday.\n```svc\nput meals mon +delete\n```')];
      else reply = [text(`echo: ${words}`)];
      bus.publish({
        kind: 'message',
        data: {
          messageId: randomUUID(),
          contextId: rc.contextId,
          taskId: '',
          role: Role.ROLE_AGENT,
          parts: reply,
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        } as never,
      });
      bus.finished();
    },
    async cancelTask() {},
  };
}

/** Starts the agent on 127.0.0.1; `url` is what `svc-a2a pair --card` takes. */
export async function startTablesAgent() {
  const seen: TablesAgentSeen[] = [];
  const served = await serveAgent(
    {
      name: 'Shopping',
      description: 'Keeps a shopping list in your tables',
      skill: { id: 'list', name: 'Shopping list', description: 'Remembers what to buy' },
    },
    executor(seen),
  );
  return { ...served, seen };
}
