// How long an answer takes to reach the agent (ADR 0265): a task (create, then tasks/get every poll interval
// until completed) against a plain svc_answers long poll, over real HTTP on SQLite. Prints a table; asserts
// only that every round trip completed.
import { createTestStore, type TestStore } from '@screen-service/test-kit';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { rpc, seeded, sibling, startInstance } from '../test/task-kit.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
let base: TestStore;
beforeAll(() => {
  base = createTestStore();
});
afterAll(() => base.close());

const ms = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, max ${s[s.length - 1]!.toFixed(1)} ms`;
};

it('answer-to-agent latency: plain long poll, task at 2 s and 250 ms poll intervals', async () => {
  const rows: string[] = [];
  for (const pollMs of [0, 2000, 250]) {
    const i = await startInstance(sibling(base), pollMs || 2000);
    const { user, token, agent } = await seeded(i.core.store);
    const create: number[] = [];
    const gets: number[] = [];
    const latency: number[] = [];
    for (let n = 0; n < ROUNDS; n++) {
      if (pollMs === 0) {
        const waiting = rpc(
          i.url,
          token,
          'tools/call',
          { name: 'svc_answers', arguments: { wait: 25 } },
          false,
        );
        await vi.waitFor(() => expect(i.core.notifier.listenerCount(user.id)).toBe(1));
        const t = performance.now();
        await i.core.threads.say(user.id, agent.id, { text: `a${n}` });
        await waiting;
        latency.push(performance.now() - t);
        continue;
      }
      const t0 = performance.now();
      const handle = await rpc(i.url, token, 'tools/call', { name: 'svc_answers', arguments: {} });
      create.push(performance.now() - t0);
      const taskId = handle.result?.taskId as string;
      // The answer lands at a random point of the client's poll cycle, as a person's tap does.
      const answerAt = Math.random() * pollMs;
      let said = 0;
      const say = new Promise<void>((resolve) =>
        setTimeout(async () => {
          said = performance.now();
          await i.core.threads.say(user.id, agent.id, { text: `t${n}` });
          resolve();
        }, answerAt),
      );
      for (;;) {
        const g0 = performance.now();
        const got = await rpc(i.url, token, 'tasks/get', { taskId });
        gets.push(performance.now() - g0);
        if (got.result?.status === 'completed') break;
        await new Promise((r) => setTimeout(r, pollMs));
      }
      await say;
      latency.push(performance.now() - said);
    }
    rows.push(
      pollMs === 0
        ? `plain svc_answers long poll: answer to agent ${ms(latency)}`
        : `task, poll ${pollMs} ms: answer to agent ${ms(latency)}; create ${ms(create)}; tasks/get ${ms(gets)}`,
    );
    await i.close();
  }
  console.log(`\n${ROUNDS} rounds each, SQLite, 127.0.0.1\n${rows.join('\n')}`);
  expect(rows).toHaveLength(3);
});
