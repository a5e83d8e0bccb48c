// Benchmark: what a native turn costs on top of the model call. Baseline: the model client alone against
// the scripted chat-completions server on 127.0.0.1 (SSE). Measured: a person's message to the written
// answer through the runtime (turn marks, working row, holdings, reply path, Screen Lines, answer) on a
// real SQLite file, same server, same run. Prints both and the ratio.
// Run: npm run bench -w @screen-service/native-agents (builds first). Never part of `npm test`.
import { performance } from 'node:perf_hooks';
import { guide } from '@screen-service/screen-lines';
import { createTestCore, seedUser } from '@screen-service/test-kit';
import { createModelClient, createNativeAgents, createNativeRuntime, STARTERS } from '../dist/index.js';
import { startModelServer } from '../dist/testing.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const ANSWER = 'Logged.\n```svc\nput runs Day=today Km=5\nchoose@next "Again tomorrow?" Yes|No\n```';
const model = await startModelServer({ fallback: ANSWER });
const client = createModelClient({ url: model.url, model: 'bench' });
const core = createTestCore({ hostMessageRate: { burst: 1_000_000_000, perMinute: 60_000_000_000 } });
const user = await seedUser(core.store);
const runtime = createNativeRuntime({ core, model: client, guide: guide().text });
await runtime.start();
const native = createNativeAgents({ core, starters: STARTERS });
const agent = await native.add(user.id, { starter: 'habit-coach' });
const messages = [{ role: 'user', content: 'ran 5 km' }];

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
for (let i = 0; i < 20; i++) await client.complete(messages);
const base = [];
for (let i = 0; i < ROUNDS; i++) {
  const t = performance.now();
  await client.complete(messages);
  base.push(performance.now() - t);
}
const turns = [];
for (let i = 0; i < ROUNDS; i++) {
  // The tables call allows 60 calls a minute per agent: move the clock so the bench measures turns, not waits.
  core.advance(60_000);
  const t = performance.now();
  const answered = new Promise((resolve) => {
    const stop = core.notifier.subscribe(user.id, (e) => {
      if (e.type === 'message' && e.message.sender === 'agent') {
        stop();
        resolve();
      }
    });
  });
  await core.threads.say(user.id, agent.id, { text: `ran ${i} km` });
  await answered;
  turns.push(performance.now() - t);
  await runtime.idle();
}
const med = (xs) => pct(xs, 0.5);
console.log(
  `model call alone:   p50 ${med(base).toFixed(2)} ms, p99 ${pct(base, 0.99).toFixed(2)} ms (${ROUNDS} rounds)`,
);
console.log(`native turn:        p50 ${med(turns).toFixed(2)} ms, p99 ${pct(turns, 0.99).toFixed(2)} ms`);
console.log(`ratio turn / model: ${(med(turns) / med(base)).toFixed(2)}x at p50`);
runtime.stop();
await model.close();
core.close();
