// Benchmark: a whole bridge turn (state file, outbox, service link, fsync'd atomic writes) against a
// bare streaming call to the same real 1.0 server, measured in the same run. Not part of `npm test`.
import { performance } from 'node:perf_hooks';
import { createA2AClient } from '../src/client.js';
import type { Message } from '../src/model.js';
import { startTestServer } from '../test/agents.js';
import { makeHarness } from '../test/harness.js';

const TURNS = Number(process.env.TURNS ?? 200);
const server = await startTestServer('v10');
const h = await makeHarness(server.url('stream'));
const client = createA2AClient(h.card);

async function bare(i: number): Promise<void> {
  const message: Message = {
    messageId: `bare-${i}`,
    role: 'user',
    parts: [{ kind: 'text', text: `hi ${i}` }],
  };
  for await (const _ of client.stream(message)) {
    // drain
  }
}

async function bridged(i: number): Promise<void> {
  await h.link.addRow(h.agent.agentId, { id: `r${i}`, text: `hi ${i}` });
  await h.bridge.step(h.agent);
}

async function measure(name: string, run: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < 20; i++) await run(-1 - i - (name === 'bridge' ? 1000 : 0)); // warm-up
  const start = performance.now();
  for (let i = 0; i < TURNS; i++) await run(i);
  return (performance.now() - start) / TURNS;
}

const baseline = await measure('bare', bare);
const turn = await measure('bridge', bridged);
console.log(`bare streaming call (baseline): ${baseline.toFixed(2)} ms per turn`);
console.log(`bridge turn (durable):          ${turn.toFixed(2)} ms per turn`);
console.log(`ratio bridge / baseline:        ${(turn / baseline).toFixed(2)}x over ${TURNS} turns`);
console.log(
  'the engine alone (no service): a durable turn adds four fsynced atomic writes (turn, task id, ' +
    'outbox entry, turn cleared); the live-service turn latency and its goal follow.',
);
await h.cleanup();
await server.close();
